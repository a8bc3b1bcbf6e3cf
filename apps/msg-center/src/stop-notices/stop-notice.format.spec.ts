import type { TransactionStoppedV1 } from '@voltdepot/shared-events';
import { noticeAmountOf, stopNoticeOf, withAmount } from './stop-notice.format';

const stop = (overrides: Partial<TransactionStoppedV1> = {}): TransactionStoppedV1 => ({
  chargePointId: 'FZ-001',
  connectorId: 2,
  transactionId: 77,
  meterStartWh: 1000,
  meterStopWh: 13_500,
  energyWh: 12_500,
  timestamp: '2025-03-01T02:03:04.000Z',
  reason: 'EVDisconnected',
  stopKind: 'normal',
  quarantined: false,
  ...overrides,
});

describe('stopNoticeOf', () => {
  it.each([
    [stop(), 1, '充电桩FZ-001的2号枪充电正常结束，原因：车辆断开连接，充电量12.50千瓦时'],
    [
      stop({ stopKind: 'abnormal', reason: 'EmergencyStop' }),
      2,
      '充电桩FZ-001的2号枪充电异常停止，原因：紧急停止，充电量12.50千瓦时，交易号77',
    ],
    [
      stop({ stopKind: 'abnormal', reason: 'PowerLoss', energyWh: undefined, quarantined: true }),
      2,
      '充电桩FZ-001的2号枪充电异常停止，原因：充电桩断电，交易号77',
    ],
    [
      stop({ reason: 'SomethingNew' }),
      1,
      '充电桩FZ-001的2号枪充电正常结束，原因：SomethingNew，充电量12.50千瓦时',
    ],
  ])('%#: type %s, msg in Chinese, and the same as data for the console', (event, type, msg) => {
    expect(stopNoticeOf(event, 'Asia/Shanghai')).toEqual({
      type,
      msg,
      date: '2025-03-01 10:03:04',
      key: 'FZ-001/77',
      stop: {
        chargePointId: 'FZ-001',
        connectorId: 2,
        transactionId: 77,
        reason: event.reason,
        ...(event.energyWh === undefined ? {} : { energyWh: event.energyWh }),
      },
    });
  });
});

describe('the amount of a stop notice', () => {
  const settled = {
    orderNo: 'O-1',
    chargePointId: 'FZ-001',
    connectorId: 2,
    transactionId: 77,
    energyWh: 12_500,
    totalFen: 1234,
    abnormalReasons: [],
    stoppedAt: '2025-03-01T02:03:04.000Z',
  };

  it('joins the notice, in fen; a held order says it is held', () => {
    const notice = stopNoticeOf(stop(), 'Asia/Shanghai');
    expect(withAmount(notice, noticeAmountOf({ ...settled, payStatus: 0 }))).toEqual({
      ...notice,
      amountFen: 1234,
      orderHeld: false,
    });
    expect(noticeAmountOf({ ...settled, payStatus: 3, totalFen: 0 })).toEqual({
      orderNo: 'O-1',
      totalFen: 0,
      held: true,
    });
  });
});
