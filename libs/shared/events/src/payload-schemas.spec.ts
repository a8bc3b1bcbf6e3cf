import { z } from 'zod';
import type { PileConnectedV1, TransactionStoppedV1 } from './ocpp-events';
import {
  exactSchema,
  meterValuesV1Schema,
  ocppPayloadSchemaOf,
  transactionStoppedV1Schema,
} from './payload-schemas';

const stopped: TransactionStoppedV1 = {
  chargePointId: 'CP-1',
  connectorId: 1,
  transactionId: 7,
  idTag: 'BUS-1',
  meterStartWh: 100,
  meterStopWh: 1_100,
  energyWh: 1_000,
  timestamp: '2026-06-01T08:00:00.000Z',
  reason: 'EVDisconnected',
  stopKind: 'normal',
  quarantined: false,
};

describe('event payload schemas', () => {
  it('accept a payload of their type', () => {
    expect(transactionStoppedV1Schema.parse(stopped)).toEqual(stopped);
  });

  it.each([
    ['a field the type does not have', { ...stopped, settled: true }, 'unrecognized_keys'],
    ['a missing field', (({ meterStopWh: _meterStopWh, ...rest }) => rest)(stopped), 'invalid_type'],
    ['a wrong type', { ...stopped, energyWh: '1000' }, 'invalid_type'],
    ['a fraction of a Wh', { ...stopped, energyWh: 0.5 }, 'invalid_type'],
    ['a stop kind outside the union', { ...stopped, stopKind: 'odd' }, 'invalid_enum_value'],
    ['a time that is not an instant', { ...stopped, timestamp: 'yesterday' }, 'invalid_string'],
  ])('refuse %s', (_what, payload, code) => {
    const result = transactionStoppedV1Schema.safeParse(payload);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.code)).toContain(code);
  });

  it('check nested objects strictly too (a sample with an extra field)', () => {
    const sample = {
      timestamp: '2026-06-01T08:00:00.000Z',
      measurand: 'Power.Active.Import',
      value: 1,
      raw: '1',
    };
    const result = meterValuesV1Schema.safeParse({
      chargePointId: 'CP-1',
      connectorId: 1,
      samples: [sample],
      flagged: false,
    });
    expect(result.success).toBe(false);
  });

  it('are found by event type and version', () => {
    expect(ocppPayloadSchemaOf({ type: 'transaction.stopped', version: 1 })).toBe(transactionStoppedV1Schema);
    expect(ocppPayloadSchemaOf({ type: 'transaction.stopped', version: 2 })).toBeUndefined();
    expect(ocppPayloadSchemaOf({ type: 'order.settled', version: 1 })).toBeUndefined();
  });

  it('do not compile when they drift from their type (checked by typecheck)', () => {
    const base = { chargePointId: z.string(), replicaId: z.string() };
    const remoteAddress = z.string().optional();
    const exact = exactSchema<PileConnectedV1>()(z.object({ ...base, remoteAddress }).strict());
    const extraOptional = z.object({ ...base, remoteAddress, port: z.number().optional() });
    const missing = z.object(base);
    const required = z.object({ ...base, remoteAddress: z.string() });
    const wrongType = z.object({ ...base, replicaId: z.number(), remoteAddress });
    // @ts-expect-error an optional field the type does not have
    exactSchema<PileConnectedV1>()(extraOptional);
    // @ts-expect-error a field the type has is missing
    exactSchema<PileConnectedV1>()(missing);
    // @ts-expect-error optional in the type, required in the schema
    exactSchema<PileConnectedV1>()(required);
    // @ts-expect-error a field of another type
    exactSchema<PileConnectedV1>()(wrongType);
    expect(exact.safeParse({ chargePointId: 'CP-1', replicaId: 'gw-1' }).success).toBe(true);
  });
});
