import { OrderAmended, OrderSettled, TransactionStopped } from '@voltdepot/shared-events';
import { createEnvelope } from '@voltdepot/server-messaging';
import { orderConsumptionOf } from './order-consumption';

const settled = (totalFen: number, idTag?: string) =>
  createEnvelope(OrderSettled, 'CP1', {
    orderNo: 'O-1',
    chargePointId: 'CP1',
    connectorId: 1,
    transactionId: 7,
    energyWh: 1000,
    totalFen,
    payStatus: 0,
    abnormalReasons: [],
    stoppedAt: '2026-11-27T00:00:00.000Z',
    ...(idTag ? { idTag } : {}),
  });

const amended = (version: number, differenceFen: number) =>
  createEnvelope(OrderAmended, 'CP1', {
    orderNo: 'O-1',
    chargePointId: 'CP1',
    connectorId: 1,
    transactionId: 7,
    version,
    kind: 'amended',
    reason: 'meter read again',
    amendedBy: 'admin',
    amendedAt: '2026-11-27T01:00:00.000Z',
    figures: { meterStopWh: 0, energyWh: 0, electricityFen: 0, serviceFen: 0, totalFen: 0, payStatus: 0 },
    difference: { meterStopWh: 0, energyWh: 0, electricityFen: 0, serviceFen: 0, totalFen: differenceFen },
    abnormalReasons: [],
    stoppedAt: '2026-11-27T00:00:00.000Z',
    idTag: 'CARD1',
  });

describe('orderConsumptionOf', () => {
  it('posts a settled order as version 1 of its total', () => {
    expect(orderConsumptionOf(settled(1234, 'CARD1'))).toEqual({
      kind: 'consumption',
      orderNo: 'O-1',
      version: 1,
      idTag: 'CARD1',
      amountFen: 1234,
      idempotencyKey: 'order:O-1:v1',
    });
  });

  it('posts only the difference of an amendment, keyed by its version', () => {
    expect(orderConsumptionOf(amended(3, -200))).toMatchObject({
      kind: 'consumption_amendment',
      amountFen: -200,
      idempotencyKey: 'order:O-1:v3',
    });
  });

  it('posts nothing for an order or amendment that bills nothing, nor for other events', () => {
    expect(orderConsumptionOf(settled(0, 'CARD1'))).toBeUndefined();
    expect(orderConsumptionOf(amended(2, 0))).toBeUndefined();
    expect(orderConsumptionOf(createEnvelope(TransactionStopped, 'CP1', {} as never))).toBeUndefined();
  });

  it('refuses (to be retried, then dead-lettered) a settled total that is negative or not whole fen', () => {
    // A negative total would otherwise credit the account as if it were an amendment.
    expect(() => orderConsumptionOf(settled(-500, 'CARD1'))).toThrow(/settled at -500 fen/);
    expect(() => orderConsumptionOf(settled(12.5, 'CARD1'))).toThrow(/not a whole number/);
    expect(() => orderConsumptionOf(settled(Number.MAX_SAFE_INTEGER + 2, 'CARD1'))).toThrow();
    expect(() => orderConsumptionOf(settled(Number.NaN, 'CARD1'))).toThrow();
  });

  it('refuses an amendment whose difference is not whole fen or whose version is not after the first', () => {
    expect(() => orderConsumptionOf(amended(2, 0.5))).toThrow(/not a whole number/);
    expect(() => orderConsumptionOf(amended(1, 100))).toThrow(/version 1/);
  });
});
