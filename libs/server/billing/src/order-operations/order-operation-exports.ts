import type { OrderOperationRow } from './dto/order-operation.dto';
import {
  codeEntries,
  ORDER_OPERATION_ACTION_LABELS,
  ORDER_OPERATION_ACTIONS,
} from '@voltdepot/shared-contracts';
import { type Localized, sheetDateTime, type SpreadsheetColumn } from '@voltdepot/server-spreadsheet';

const h = (zh: string, en: string): Localized => ({ 'zh-CN': zh, 'en-US': en });

/** The columns of the order operation log export (times in the business time zone, yuan). */
export const ORDER_OPERATION_COLUMNS: SpreadsheetColumn<OrderOperationRow>[] = [
  { key: 'at', header: h('操作时间', 'Operated at'), value: (r) => sheetDateTime(r.at) },
  {
    key: 'action',
    header: h('操作类型', 'Action'),
    dictionary: codeEntries(ORDER_OPERATION_ACTIONS, ORDER_OPERATION_ACTION_LABELS),
    width: 12,
  },
  { key: 'operator', header: h('操作人', 'Operator'), width: 16 },
  { key: 'orderNo', header: h('订单号', 'Order number'), width: 28 },
  { key: 'stationName', header: h('充电站', 'Station') },
  { key: 'detail', header: h('操作说明', 'Remark'), width: 40 },
  {
    key: 'amount',
    header: h('金额(元)', 'Amount (yuan)'),
    value: (r) => (r.amountFen === null ? null : Math.round(r.amountFen) / 100),
    numFmt: '0.00',
  },
];
