import type { RPCClient } from 'ocpp-rpc';
import type { StatusNotificationRequest } from '@voltdepot/shared-ocpp';
import { GatewayTestHarness } from '../testing/fixtures/gateway-test-harness';
import { PileStatusRepository, type StatusItem } from './pile-status.repository';

/*
 * The alarm flow of StatusNotification: a PileError once per error, PileErrorCleared when it ends,
 * nothing new on repeats; connector 0 is the pile itself. Events are read from the outbox, where the
 * notification's transaction put them before the pile got its answer.
 */
const h = new GatewayTestHarness();

beforeAll(() => h.start());
afterAll(() => h.stop());

type Outboxed = { type: string; payload: Record<string, unknown> };

async function outbox(
  chargePointId: string,
  types = ['pile.error', 'pile.error-cleared'],
): Promise<Outboxed[]> {
  return h.query<Outboxed>(
    `SELECT type, payload FROM outbox_event WHERE key = $1 AND type = ANY($2::text[]) ORDER BY id`,
    [chargePointId, types],
  );
}

async function pile(id: string): Promise<RPCClient> {
  return h.connect(id, await h.addPile(id));
}

let clock = Date.parse('2026-03-01T08:00:00Z');
/** A StatusNotification a second after the previous one. */
function status(
  connectorId: number,
  errorCode: string,
  extra: Partial<StatusNotificationRequest> = {},
): StatusNotificationRequest {
  clock += 1_000;
  return {
    connectorId,
    errorCode,
    status: errorCode === 'NoError' ? 'Available' : 'Faulted',
    timestamp: new Date(clock).toISOString(),
    ...extra,
  } as StatusNotificationRequest;
}

describe('StatusNotification alarm flow', () => {
  it('raises an error once, ignores its repeats (as after a reconnect) and clears it', async () => {
    const client = await pile('CP-AL-1');
    const raise = status(1, 'HighTemperature', { vendorErrorCode: 'T-92', info: 'cable 92C' });
    await client.call('StatusNotification', raise);
    await client.call('StatusNotification', status(1, 'HighTemperature', { vendorErrorCode: 'T-92' }));
    await client.close();
    // The pile reconnects and reports all its connectors again.
    const again = await h.connect('CP-AL-1', `pw-CP-AL-1-secret`);
    await again.call('StatusNotification', status(1, 'HighTemperature', { vendorErrorCode: 'T-92' }));
    expect(await outbox('CP-AL-1')).toEqual([
      {
        type: 'pile.error',
        payload: expect.objectContaining({
          connectorId: 1,
          errorCode: 'HighTemperature',
          vendorErrorCode: 'T-92',
          info: 'cable 92C',
          timestamp: raise.timestamp,
        }),
      },
    ]);
    const clear = status(1, 'NoError');
    await again.call('StatusNotification', clear);
    await again.call('StatusNotification', status(1, 'NoError'));
    const events = await outbox('CP-AL-1');
    expect(events).toHaveLength(2);
    expect(events[1]).toEqual({
      type: 'pile.error-cleared',
      payload: {
        chargePointId: 'CP-AL-1',
        connectorId: 1,
        errorCode: 'HighTemperature',
        vendorErrorCode: 'T-92',
        since: new Date(raise.timestamp!).toISOString(),
        clearedAt: new Date(clear.timestamp!).toISOString(),
        status: 'Available',
        currentErrorCode: 'NoError',
      },
    });
    // Every notification still announces the connector's status.
    expect(await outbox('CP-AL-1', ['connector.status-changed'])).toHaveLength(5);
    const [row] = await h.query(
      `SELECT error_code, error_since FROM connector_status WHERE charge_point_id = 'CP-AL-1' AND connector_id = 1`,
    );
    expect(row).toEqual({ error_code: 'NoError', error_since: null });
  });

  it('treats connector 0 (the whole pile) as a connector of its own', async () => {
    const client = await pile('CP-AL-0');
    await client.call('StatusNotification', status(0, 'PowerSwitchFailure'));
    await client.call('StatusNotification', status(1, 'GroundFailure'));
    await client.call('StatusNotification', status(0, 'PowerSwitchFailure'));
    await client.call('StatusNotification', status(0, 'NoError'));
    const events = await outbox('CP-AL-0');
    expect(events.map((e) => [e.type, e.payload['connectorId'], e.payload['errorCode']])).toEqual([
      ['pile.error', 0, 'PowerSwitchFailure'],
      ['pile.error', 1, 'GroundFailure'],
      ['pile.error-cleared', 0, 'PowerSwitchFailure'],
    ]);
    const rows = await h.query(
      `SELECT connector_id, error_code FROM connector_status WHERE charge_point_id = 'CP-AL-0' ORDER BY connector_id`,
    );
    expect(rows).toEqual([
      { connector_id: 0, error_code: 'NoError' },
      { connector_id: 1, error_code: 'GroundFailure' },
    ]);
  });

  it('ends an error and raises the next one when the error changes (errorCode or vendorErrorCode)', async () => {
    const client = await pile('CP-AL-2');
    await client.call('StatusNotification', status(2, 'OtherError', { vendorErrorCode: 'E1' }));
    await client.call('StatusNotification', status(2, 'OtherError', { vendorErrorCode: 'E2' }));
    await client.call('StatusNotification', status(2, 'OverVoltage'));
    const events = await outbox('CP-AL-2');
    expect(events.map((e) => [e.type, e.payload['errorCode'], e.payload['vendorErrorCode']])).toEqual([
      ['pile.error', 'OtherError', 'E1'],
      ['pile.error-cleared', 'OtherError', 'E1'],
      ['pile.error', 'OtherError', 'E2'],
      ['pile.error-cleared', 'OtherError', 'E2'],
      ['pile.error', 'OverVoltage', undefined],
    ]);
    expect(events[3].payload).toMatchObject({ currentErrorCode: 'OverVoltage', status: 'Faulted' });
  });

  it('a late notification older than the stored status neither raises nor clears', async () => {
    const client = await pile('CP-AL-LATE');
    const error = status(1, 'ReaderFailure');
    await client.call('StatusNotification', error);
    await client.call('StatusNotification', {
      ...status(1, 'NoError'),
      timestamp: new Date(Date.parse(error.timestamp!) - 60_000).toISOString(),
    });
    expect((await outbox('CP-AL-LATE')).map((e) => e.type)).toEqual(['pile.error']);
  });

  it('includes the alarm registry entry of the code, the vendor code first', async () => {
    await h.query(
      `INSERT INTO alarm_code (protocol_type, code, name, level, category, description) VALUES
         ('ocpp1.6', 'GroundFailure', 'Ground fault', 3, 'general', 'Residual current detected'),
         ('ocpp1.6', 'VX-17', 'Pump failure', 2, 'other', NULL),
         ('gbt27930', 'OverVoltage', 'Not this protocol', 1, 'general', NULL)`,
    );
    const client = await pile('CP-AL-REG');
    await client.call('StatusNotification', status(1, 'GroundFailure'));
    await client.call('StatusNotification', status(2, 'GroundFailure', { vendorErrorCode: 'VX-17' }));
    await client.call('StatusNotification', status(3, 'OverVoltage'));
    await client.call('StatusNotification', status(1, 'NoError'));
    const events = await outbox('CP-AL-REG');
    expect(events.map((e) => [e.type, e.payload['connectorId'], e.payload['alarm']])).toEqual([
      [
        'pile.error',
        1,
        {
          code: 'GroundFailure',
          name: 'Ground fault',
          level: 3,
          category: 'general',
          description: 'Residual current detected',
        },
      ],
      ['pile.error', 2, { code: 'VX-17', name: 'Pump failure', level: 2, category: 'other' }],
      ['pile.error', 3, undefined],
      ['pile.error-cleared', 1, expect.objectContaining({ code: 'GroundFailure', level: 3 })],
    ]);
  });
});

describe('PileStatusRepository.recordStatuses (one batch, one transaction)', () => {
  const repository = () => new PileStatusRepository(h.db.dataSource);
  const item = (chargePointId: string, req: StatusNotificationRequest): StatusItem => ({
    chargePointId,
    req,
    receivedAt: new Date(),
    correlationId: `c-${Math.random()}`,
  });

  it('walks a batch in time order: raise, repeat, clear, raise again, late ones ignored', async () => {
    const first = status(1, 'EVCommunicationError');
    const repeat = status(1, 'EVCommunicationError');
    const clear = status(1, 'NoError');
    const again = status(1, 'EVCommunicationError');
    const late = { ...status(1, 'NoError'), timestamp: '2020-01-01T00:00:00.000Z' };
    await h.db.dataSource.transaction((m) =>
      // Out of arrival order: the batch is applied by the notifications' timestamps.
      repository().recordStatuses(
        m,
        [again, first, clear, repeat].map((r) => item('CP-AL-B', r)),
      ),
    );
    await h.db.dataSource.transaction((m) => repository().recordStatuses(m, [item('CP-AL-B', late)]));
    const events = await outbox('CP-AL-B');
    expect(events.map((e) => e.type).sort()).toEqual(['pile.error', 'pile.error', 'pile.error-cleared']);
    const cleared = events.find((e) => e.type === 'pile.error-cleared')!;
    expect(cleared.payload).toMatchObject({
      since: new Date(first.timestamp!).toISOString(),
      clearedAt: new Date(clear.timestamp!).toISOString(),
    });
    const [row] = await h.query(
      `SELECT error_code, error_since FROM connector_status WHERE charge_point_id = 'CP-AL-B'`,
    );
    expect(row).toEqual({ error_code: 'EVCommunicationError', error_since: new Date(again.timestamp!) });
  });

  it('two transactions reporting the same new error at once raise it once', async () => {
    const req = status(4, 'WeakSignal');
    await Promise.all(
      [1, 2, 3].map(() =>
        h.db.dataSource.transaction((m) => repository().recordStatuses(m, [item('CP-AL-RACE', req)])),
      ),
    );
    expect((await outbox('CP-AL-RACE')).map((e) => e.type)).toEqual(['pile.error']);
  });
});
