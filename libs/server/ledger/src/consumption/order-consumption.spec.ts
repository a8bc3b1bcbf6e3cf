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
});
