import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@voltdepot/shared-events';
import { planFor } from './projection';
import { ReadModelKeys } from './read-model.keys';

const keys = new ReadModelKeys('t:mon');
const now = new Date('2025-01-01T12:00:00.000Z');

function envelope(type: string, payload: object, occurredAt = '2025-01-01T10:00:00.000Z'): EventEnvelope {
  return {
    eventId: randomUUID(),
    topic: type.startsWith('pile') || type.startsWith('connector') ? 'ocpp.status' : 'ocpp.transactions',
    key: 'CP-1',
    type,
    version: 1,
    occurredAt,
    correlationId: 'CP-1:session-1',
    payload,
  };
}

describe('projection of gateway events', () => {
  it('records a status notification once (marker) in the gun history, at the pile time', () => {
    const plan = planFor(
      envelope('connector.status-changed', {
        chargePointId: 'CP-1',
        connectorId: 2,
        status: 'Charging',
        errorCode: 'NoError',
        timestamp: '2025-01-01T10:00:00.5+08:00',
      }),
      keys,
      now,
    );
    expect(plan?.markerKey).toMatch(/^t:mon:evt:/);
    expect(plan?.ops).toEqual([
      {
        op: 'hist',
        key: 't:mon:gun:CP-1:2:status',
        at: '2025-01-01T02:00:00.500Z',
        data: JSON.stringify({ s: 'Charging', e: 'NoError', i: null }),
        keep: 32,
      },
      { op: 'max', key: 't:mon:pile:CP-1', field: 'lastSeenAt', value: '2025-01-01T10:00:00.000Z' },
      { op: 'sadd', key: 't:mon:pile:CP-1:connectors', member: '2' },
    ]);
  });

  it('keeps the connection id of a connection event, so a stale disconnection can be told apart', () => {
    const plan = planFor(
      envelope('pile.disconnected', { chargePointId: 'CP-1', replicaId: 'r1' }),
      keys,
      now,
    );
    expect(plan?.ops[0]).toEqual(
      expect.objectContaining({ op: 'hist', data: JSON.stringify({ k: 'd', s: 'CP-1:session-1', r: 'r1' }) }),
    );
  });

  it('takes the whole-meter energy register, import power and SoC of a sample, newest per measurand', () => {
    const plan = planFor(
      envelope('meter-values.received', {
        chargePointId: 'CP-1',
        connectorId: 1,
        transactionId: 42,
        flagged: true,
        samples: [
          {
            timestamp: '2025-01-01T10:00:05.000Z',
            measurand: 'Energy.Active.Import.Register',
            value: 1500,
            unit: 'Wh',
          },
          {
            timestamp: '2025-01-01T10:00:00.000Z',
            measurand: 'Energy.Active.Import.Register',
            value: 1400,
            unit: 'Wh',
          },
          {
            timestamp: '2025-01-01T10:00:05.000Z',
            measurand: 'Power.Active.Import',
            value: 7100.4,
            unit: 'W',
          },
          {
            timestamp: '2025-01-01T10:00:05.000Z',
            measurand: 'Power.Active.Import',
            value: 2000,
            unit: 'W',
            phase: 'L1',
          },
          { timestamp: '2025-01-01T10:00:05.000Z', measurand: 'SoC', value: 44.44, unit: 'Percent' },
          {
            timestamp: '2025-01-01T10:00:06.000Z',
            measurand: 'Energy.Active.Import.Register',
            value: 1,
            flag: 'decreasing',
          },
        ],
      }),
      keys,
      now,
    );
    expect(plan?.markerKey).toBeUndefined();
    expect(plan?.ops[0]).toEqual({
      op: 'lww',
      key: 't:mon:tx:CP-1:42',
      fields: {
        registerWh: ['2025-01-01T10:00:05.000Z', '1500'],
        powerW: ['2025-01-01T10:00:05.000Z', '7100'],
        soc: ['2025-01-01T10:00:05.000Z', '44.4'],
      },
    });
    expect(plan?.ops).toContainEqual(
      expect.objectContaining({
        op: 'zmin',
        key: 't:mon:gun:CP-1:1:txs',
        member: '42',
        score: Date.parse('2025-01-01T10:00:00.000Z'),
      }),
    );
  });

  it('files a quarantined stop under its transaction only (it names no gun)', () => {
    const plan = planFor(
      envelope('transaction.stopped', {
        chargePointId: 'CP-1',
        connectorId: 0,
        transactionId: 9,
        meterStopWh: 100,
        timestamp: '2025-01-01T10:00:00.000Z',
        reason: 'Local',
        stopKind: 'normal',
        quarantined: true,
      }),
      keys,
      now,
    );
    expect(plan?.ops.map((op) => op.key)).toEqual(['t:mon:tx:CP-1:9', 't:mon:tx:CP-1:9', 't:mon:pile:CP-1']);
  });

  it('never dates "last seen" after now (a pile with a clock in the future)', () => {
    const plan = planFor(
      envelope(
        'pile.booted',
        { chargePointId: 'CP-1', vendor: 'V', model: 'M', registrationStatus: 'Accepted' },
        '2030-01-01T00:00:00.000Z',
      ),
      keys,
      now,
    );
    expect(plan?.ops).toContainEqual(expect.objectContaining({ op: 'max', value: now.toISOString() }));
  });

  it('ignores events it has no use for', () => {
    expect(planFor(envelope('pile.error', { chargePointId: 'CP-1' }), keys, now)).toBeNull();
    expect(planFor({ ...envelope('pile.booted', {}), version: 2 }, keys, now)).toBeNull();
  });
});
