import { bootRequest, GatewayTestHarness } from '../../../testing/fixtures/gateway-test-harness';

const h = new GatewayTestHarness();

beforeAll(async () => {
  await h.start();
  await h.addIdTag('TAG-OK', 'Accepted', {
    expiryDate: new Date(Date.now() + 86_400_000),
    parentIdTag: 'FLEET-1',
  });
  await h.addIdTag('TAG-BLOCKED', 'Blocked');
  await h.addIdTag('TAG-EXPIRED', 'Accepted', { expiryDate: new Date(Date.now() - 60_000) });
  await h.addIdTag('TAG-INVALID', 'Invalid');
  await h.addIdTag('TAG-BUSY', 'Accepted');
});
afterAll(() => h.stop());

describe('Authorize', () => {
  it.each([
    ['TAG-OK', 'Accepted'],
    ['TAG-BLOCKED', 'Blocked'],
    ['TAG-EXPIRED', 'Expired'],
    ['TAG-INVALID', 'Invalid'],
    ['TAG-NEVER-SEEN', 'Invalid'],
  ])('%s -> %s', async (idTag, status) => {
    const client = await h.connect('CP-AUTH', await h.addPile('CP-AUTH'));
    const { idTagInfo } = (await client.call('Authorize', { idTag })) as { idTagInfo: { status: string } };
    expect(idTagInfo.status).toBe(status);
  });

  it('returns expiry and parent of an accepted tag', async () => {
    const client = await h.connect('CP-AUTH2', await h.addPile('CP-AUTH2'));
    const { idTagInfo } = (await client.call('Authorize', { idTag: 'TAG-OK' })) as {
      idTagInfo: Record<string, string>;
    };
    expect(idTagInfo).toEqual({ status: 'Accepted', expiryDate: expect.any(String), parentIdTag: 'FLEET-1' });
  });

  it('answers ConcurrentTx for a tag already in an open transaction, in Authorize and StartTransaction', async () => {
    const client = await h.connect('CP-AUTH3', await h.addPile('CP-AUTH3'));
    await client.call('BootNotification', bootRequest);
    const first = (await client.call('StartTransaction', {
      connectorId: 1,
      idTag: 'TAG-BUSY',
      meterStart: 0,
      timestamp: new Date().toISOString(),
    })) as {
      idTagInfo: { status: string };
      transactionId: number;
    };
    expect(first.idTagInfo.status).toBe('Accepted');
    expect(
      ((await client.call('Authorize', { idTag: 'TAG-BUSY' })) as { idTagInfo: { status: string } }).idTagInfo
        .status,
    ).toBe('ConcurrentTx');
    const second = (await client.call('StartTransaction', {
      connectorId: 2,
      idTag: 'TAG-BUSY',
      meterStart: 0,
      timestamp: new Date().toISOString(),
    })) as {
      idTagInfo: { status: string };
      transactionId: number;
    };
    // The pile has started already: the transaction is recorded and the pile is told to stop it.
    expect(second.idTagInfo.status).toBe('ConcurrentTx');
    expect(second.transactionId).not.toBe(first.transactionId);
  });

  it('sees a tag blocked after it was cached once the cache entry expires', async () => {
    const h2 = new GatewayTestHarness();
    await h2.start({ OCPP_ID_TAG_CACHE_MS: 300 });
    try {
      await h2.addIdTag('TAG-SOON-BLOCKED', 'Accepted');
      const client = await h2.connect('CP-C', await h2.addPile('CP-C'));
      const status = async () =>
        ((await client.call('Authorize', { idTag: 'TAG-SOON-BLOCKED' })) as { idTagInfo: { status: string } })
          .idTagInfo.status;
      expect(await status()).toBe('Accepted');
      await h2.addIdTag('TAG-SOON-BLOCKED', 'Blocked');
      expect(await status()).toBe('Accepted'); // cached
      await new Promise((r) => setTimeout(r, 350));
      expect(await status()).toBe('Blocked');
    } finally {
      await h2.stop();
    }
  });
});
