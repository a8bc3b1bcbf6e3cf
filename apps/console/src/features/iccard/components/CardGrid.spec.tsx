import { act, fireEvent } from '@testing-library/react';
import type { IcCardActionResult, IcCardView } from '@voltdepot/console-api-client';
import { CardReaderError, type CardOnReader } from '@voltdepot/shared-contracts';
import { describe, expect, it, vi } from 'vitest';
import { json, stubApi, type FakeHandler } from '../../../test/fakeApi';
import { waitFor } from '../../../test/render';
import { codesOf, renderInApp } from '../../../test/renderInApp';
import { CardReaderProvider, type CardReader } from '../hooks/cardReader';
import { ICCARD_PERMISSIONS } from '../permissions';
import { CardGrid } from './CardGrid';

const aCard = (o: Partial<IcCardView>): IcCardView => ({
  id: 1,
  cardNo: 'C0001',
  chip: 'CPU',
  cardType: 1,
  status: 'normal',
  customerId: 7,
  customerName: 'Li Lei',
  accountId: 70,
  balanceFen: 1000,
  issuedAt: '2026-11-20T08:00:00.000Z',
  updatedAt: '2026-11-20T08:00:00.000Z',
  ...o,
});

const cards = [
  aCard({ id: 1, cardNo: 'C0001', status: 'normal' }),
  aCard({ id: 2, cardNo: 'C0002', status: 'lost' }),
  aCard({ id: 3, cardNo: 'C0003', status: 'notMade', balanceFen: 0 }),
];

const onReader = (o: Partial<CardOnReader> = {}): CardOnReader => ({
  chip: 'CPU',
  uid: '04A1B2C3',
  cardNo: 'C0001',
  balanceFen: 1000,
  ...o,
});

function fakeReader(overrides: Partial<CardReader> = {}) {
  return {
    read: vi.fn(async () => onReader()),
    make: vi.fn(async () => onReader({ balanceFen: 0 })),
    write: vi.fn(async (_purpose: string, cardNo: string, balanceFen: number) =>
      onReader({ cardNo, balanceFen }),
    ),
    ...overrides,
  };
}

async function open(reader: CardReader, routes: Record<string, FakeHandler> = {}) {
  const api = stubApi({
    'GET /api/iccard/card/page/1/size/10': () => ({ list: cards, total: cards.length }),
    ...routes,
  });
  await renderInApp(
    <CardReaderProvider reader={reader}>
      <CardGrid chip="CPU" testId="cpu-cards" />
    </CardReaderProvider>,
    { permissions: codesOf(ICCARD_PERMISSIONS) },
  );
  await waitFor(() => expect(document.body.textContent).toContain('C0003'));
  return api;
}

const byTestId = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLButtonElement;
const click = (el: Element) => act(async () => fireEvent.click(el));
const type = (el: Element, value: string) => act(async () => fireEvent.change(el, { target: { value } }));

const recharged: IcCardActionResult = {
  record: {
    id: 9,
    cardNo: 'C0001',
    customerName: 'Li Lei',
    action: 'recharge',
    statusBefore: 'normal',
    statusAfter: 'normal',
    notes: [],
    amountFen: 10050,
    balanceBeforeFen: 1000,
    balanceAfterFen: 11050,
    operatorId: 1,
    occurredAt: '2026-11-22T02:00:00.000Z',
  },
  card: aCard({ balanceFen: 11050 }),
  replayed: false,
};

describe('CardGrid', { timeout: 120_000 }, () => {
  it('offers each card action only in the statuses the state machine allows it in', async () => {
    await open(fakeReader());
    // A row offers only the actions its status allows (the others are not shown).
    const enabled = (button: string, cardNo: string) => {
      const found = byTestId(`card-${button}-${cardNo}`);
      return found !== null && !found.disabled;
    };
    // normal
    expect(enabled('recharge', 'C0001')).toBe(true);
    expect(enabled('reportLoss', 'C0001')).toBe(true);
    expect(enabled('releaseLoss', 'C0001')).toBe(false);
    expect(enabled('make', 'C0001')).toBe(false);
    expect(enabled('refundWithoutCard', 'C0001')).toBe(false);
    // lost
    expect(enabled('recharge', 'C0002')).toBe(false);
    expect(enabled('releaseLoss', 'C0002')).toBe(true);
    expect(enabled('replace', 'C0002')).toBe(true);
    expect(enabled('refundWithoutCard', 'C0002')).toBe(true);
    // not made
    expect(enabled('make', 'C0003')).toBe(true);
    expect(enabled('read', 'C0003')).toBe(false);
    expect(enabled('logout', 'C0003')).toBe(false);
    expect(document.body.textContent).toContain('Reported lost');
  });

  it('recharges: reads the card, sends it to the server, retries with the same request id, then writes the card', async () => {
    const reader = fakeReader();
    let attempts = 0;
    const { calls } = await open(reader, {
      'POST /api/iccard/card/C0001/recharge': () => {
        attempts += 1;
        return attempts === 1
          ? json({ code: 'SERVICE_UNAVAILABLE', message: 'try again', correlationId: 'x' }, 503)
          : recharged;
      },
    });
    await click(byTestId('card-recharge-C0001'));
    await waitFor(() => expect(byTestId('amount-input')).not.toBeNull());
    await type(byTestId('amount-input'), '100.50');
    await click(byTestId('card-action-ok'));
    await waitFor(() => expect(byTestId('card-action-failure')).not.toBeNull());
    expect(reader.read).toHaveBeenCalledWith({ chip: 'CPU', expectCardNo: 'C0001' });
    expect(reader.write).not.toHaveBeenCalled();

    await click(byTestId('card-action-ok')); // retry
    await waitFor(() => expect(reader.write).toHaveBeenCalled());
    expect(reader.write).toHaveBeenCalledWith('recharge', 'C0001', 11050);
    expect(reader.read).toHaveBeenCalledTimes(1);
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(2);
    const [first, second] = posts.map((c) => c.body as Record<string, unknown>);
    expect(first).toEqual({ requestId: expect.any(String), presentedCardNo: 'C0001', amount: '100.50' });
    expect(second).toEqual(first);
    await waitFor(() => expect(document.body.textContent).toContain('Recharged'));
  });

  it('a new click sends a fresh request id', async () => {
    const reader = fakeReader();
    const { calls } = await open(reader, { 'POST /api/iccard/card/C0001/recharge': () => recharged });
    const pageReads = () => calls.filter((c) => c.path === '/api/iccard/card/page/1/size/10').length;
    for (let i = 0; i < 2; i++) {
      // After a recharge the grid reads its page again: click the row of the new page, not the one it replaces.
      await waitFor(() => expect(pageReads()).toBeGreaterThanOrEqual(i + 1));
      await act(async () => undefined);
      await click(byTestId('card-recharge-C0001'));
      await waitFor(() => expect(byTestId('amount-input')).not.toBeNull());
      await type(byTestId('amount-input'), '1');
      await click(byTestId('card-action-ok'));
      await waitFor(() => expect(reader.write).toHaveBeenCalledTimes(i + 1));
      await waitFor(() => expect(byTestId('amount-input')).toBeNull());
    }
    const ids = calls
      .filter((c) => c.method === 'POST')
      .map((c) => (c.body as { requestId: string }).requestId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("shows the reader's failure by its §8 label and sends nothing to the server", async () => {
    const reader = fakeReader({
      read: vi.fn(async () => {
        throw new CardReaderError('idMismatch', 'reader', 'the card in the reader is C0009');
      }),
    });
    const { calls } = await open(reader);
    await click(byTestId('card-swap-C0001'));
    await click(byTestId('card-action-ok'));
    await waitFor(() => expect(byTestId('card-action-failure')?.textContent).toContain('ID mismatch'));
    expect(byTestId('card-action-failure').textContent).not.toContain('idMismatch');
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('after a refund with the card asks whether to log it out, and logs it out as a new operation', async () => {
    const reader = fakeReader();
    const refunded: IcCardActionResult = {
      record: { ...recharged.record, action: 'refundWithCard', notes: ['askLogout'], amountFen: -1000 },
      card: aCard({ balanceFen: 0 }),
      replayed: false,
    };
    const loggedOut: IcCardActionResult = {
      record: { ...recharged.record, action: 'logout', notes: [], amountFen: null, statusAfter: 'cancelled' },
      card: aCard({ balanceFen: 0, status: 'cancelled' }),
      replayed: false,
    };
    const { calls } = await open(reader, {
      'POST /api/iccard/card/C0001/refundWithCard': () => refunded,
      'POST /api/iccard/card/C0001/logout': () => loggedOut,
    });
    await click(byTestId('card-refundWithCard-C0001'));
    await click(byTestId('card-action-ok'));
    await waitFor(() => expect(byTestId('ask-logout-ok')).not.toBeNull());
    expect(document.body.textContent).toContain('Refunded. Log the card out?');
    expect(reader.write).toHaveBeenCalledWith('refund', 'C0001', 0);
    await click(byTestId('ask-logout-ok'));
    await waitFor(() => expect(byTestId('card-action-ok')).not.toBeNull());
    await click(byTestId('card-action-ok'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/iccard/card/C0001/logout')).toBe(true));
    const [refund, logout] = calls
      .filter((c) => c.method === 'POST')
      .map((c) => c.body as { requestId: string });
    expect(logout).toEqual({ requestId: expect.any(String), presentedCardNo: 'C0001' });
    expect(logout!.requestId).not.toBe(refund!.requestId);
  });

  it('asks for the certificate number before reporting a loss, with the §5 message', async () => {
    const { calls } = await open(fakeReader());
    await click(byTestId('card-reportLoss-C0001'));
    await click(byTestId('card-action-ok'));
    await waitFor(() =>
      expect(document.querySelector('.ant-form-item-explain-error')?.textContent).toBe(
        'Certificate number is required',
      ),
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });
});
