import {
  BOOLEAN_CODES,
  CARD_STATUS_LABELS,
  CARD_STATUSES,
  CARD_TYPE_LABELS,
  CARD_TYPES,
  codeEntries,
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  IC_ACCOUNT_KIND_LABELS,
  IC_ACCOUNT_KINDS,
  IC_CARD_ACTION_LABELS,
  IC_CARD_ACTIONS,
  IC_CARD_CHIP_LABELS,
  IC_CARD_CHIPS,
  LEDGER_KIND_LABELS,
  LEDGER_KINDS,
  YES_NO_LABELS,
  orderNumberOf,
} from '@voltdepot/shared-contracts';
import { type Localized, sheetDateTime, type SpreadsheetColumn } from '@voltdepot/server-spreadsheet';
import type { IcCardActionView, IcCardView, IcCompanyView, IcCustomerView } from '../dto/iccard.dto';
import type { IcAccountView, IcLedgerRecordView } from './dto/iccard-query.dto';

/** Fen as yuan (exact: two decimals). */
const yuan = (fen: number | null): number | null => (fen === null ? null : Math.round(fen) / 100);
const h = (zh: string, en: string): Localized => ({ 'zh-CN': zh, 'en-US': en });
const MONEY = '0.00';

// The code labels the console shows too (libs/shared/contracts).
const CARD_STATUS = codeEntries(CARD_STATUSES, CARD_STATUS_LABELS);
const CARD_TYPE = codeEntries(CARD_TYPES, CARD_TYPE_LABELS);
const CLIENT_TYPE = codeEntries(CUSTOMER_TYPES, CUSTOMER_TYPE_LABELS);
const CHIP = codeEntries(IC_CARD_CHIPS, IC_CARD_CHIP_LABELS);
const ACTION = codeEntries(IC_CARD_ACTIONS, IC_CARD_ACTION_LABELS);
const LEDGER_KIND = codeEntries(LEDGER_KINDS, LEDGER_KIND_LABELS);
const ACCOUNT_KIND = codeEntries(IC_ACCOUNT_KINDS, IC_ACCOUNT_KIND_LABELS);
const YES_NO = codeEntries(BOOLEAN_CODES, YES_NO_LABELS);
const GENDER = [
  { value: '0', label: h('男', 'Male') },
  { value: '1', label: h('女', 'Female') },
];

const money = <T>(key: string, header: Localized, fen: (r: T) => number | null): SpreadsheetColumn<T> => ({
  key,
  header,
  value: (r) => yuan(fen(r)),
  numFmt: MONEY,
  width: 14,
});

export const COMPANY_COLUMNS: SpreadsheetColumn<IcCompanyView>[] = [
  { key: 'number', header: h('公司编号', 'Company number'), width: 16 },
  { key: 'name', header: h('公司名称', 'Company name'), width: 28 },
  { key: 'contacts', header: h('联系人', 'Contacts') },
  { key: 'contactInformation', header: h('联系方式', 'Contact information') },
  { key: 'updatedAt', header: h('更新时间', 'Updated at'), value: (r) => sheetDateTime(r.updatedAt) },
];

export const CUSTOMER_COLUMNS: SpreadsheetColumn<IcCustomerView>[] = [
  { key: 'userName', header: h('用户名称', 'User name') },
  { key: 'clientType', header: h('客户类型', 'Client type'), dictionary: CLIENT_TYPE, width: 14 },
  { key: 'certificateType', header: h('证件类型', 'Certificate type'), width: 14 },
  { key: 'certificateNumber', header: h('证件号码', 'Certificate number'), width: 22 },
  { key: 'customerType', header: h('用户类型', 'Customer type'), width: 14 },
  { key: 'phone', header: h('电话', 'Phone'), width: 16 },
  { key: 'companyName', header: h('所属公司', 'Company'), width: 24 },
  { key: 'gender', header: h('性别', 'Gender'), dictionary: GENDER, width: 8 },
  { key: 'nation', header: h('民族', 'Nation'), width: 10 },
  { key: 'address', header: h('地址', 'Address'), width: 30 },
  {
    key: 'identityVerified',
    header: h('身份已验证', 'Identity verified'),
    value: (r) => String(r.identityVerified),
    dictionary: YES_NO,
    width: 12,
  },
  { key: 'accountKind', header: h('账户类型', 'Account type'), dictionary: ACCOUNT_KIND, width: 16 },
  money('balance', h('余额(元)', 'Balance (yuan)'), (r) => r.balanceFen),
  money('arrears', h('欠费(元)', 'Arrears (yuan)'), (r) => r.arrearsFen),
  { key: 'updatedAt', header: h('更新时间', 'Updated at'), value: (r) => sheetDateTime(r.updatedAt) },
];

export const CARD_COLUMNS: SpreadsheetColumn<IcCardView>[] = [
  { key: 'cardNo', header: h('卡号', 'Card number'), width: 22 },
  { key: 'chip', header: h('卡片类型', 'Chip'), dictionary: CHIP, width: 10 },
  { key: 'cardType', header: h('卡类别', 'Card type'), dictionary: CARD_TYPE, width: 12 },
  { key: 'status', header: h('卡状态', 'Card status'), dictionary: CARD_STATUS, width: 12 },
  { key: 'customerName', header: h('持卡人', 'Holder') },
  money('balance', h('余额(元)', 'Balance (yuan)'), (r) => r.balanceFen),
  { key: 'issuedAt', header: h('发卡时间', 'Issued at'), value: (r) => sheetDateTime(r.issuedAt) },
  { key: 'updatedAt', header: h('更新时间', 'Updated at'), value: (r) => sheetDateTime(r.updatedAt) },
];

export const ACTION_COLUMNS: SpreadsheetColumn<IcCardActionView>[] = [
  { key: 'occurredAt', header: h('操作时间', 'Time'), value: (r) => sheetDateTime(r.occurredAt) },
  { key: 'cardNo', header: h('卡号', 'Card number'), width: 22 },
  { key: 'customerName', header: h('持卡人', 'Holder') },
  { key: 'action', header: h('操作', 'Action'), dictionary: ACTION, width: 16 },
  { key: 'statusBefore', header: h('操作前状态', 'Status before'), dictionary: CARD_STATUS, width: 12 },
  { key: 'statusAfter', header: h('操作后状态', 'Status after'), dictionary: CARD_STATUS, width: 12 },
  money('amount', h('金额(元)', 'Amount (yuan)'), (r) => r.amountFen),
  money('balanceBefore', h('操作前余额(元)', 'Balance before (yuan)'), (r) => r.balanceBeforeFen),
  money('balanceAfter', h('操作后余额(元)', 'Balance after (yuan)'), (r) => r.balanceAfterFen),
  { key: 'operatorId', header: h('操作员编号', 'Operator id'), width: 12 },
];

export const ACCOUNT_COLUMNS: SpreadsheetColumn<IcAccountView>[] = [
  { key: 'name', header: h('账户名称', 'Account name') },
  { key: 'kind', header: h('账户类型', 'Account type'), dictionary: ACCOUNT_KIND, width: 16 },
  { key: 'companyName', header: h('所属公司', 'Company'), width: 24 },
  money('balance', h('余额(元)', 'Balance (yuan)'), (r) => r.balanceFen),
  money('arrears', h('欠费(元)', 'Arrears (yuan)'), (r) => r.arrearsFen),
  money('consumed', h('累计消费(元)', 'Consumed (yuan)'), (r) => r.consumedFen),
  money('recharged', h('累计充值(元)', 'Recharged (yuan)'), (r) => r.rechargedFen),
  {
    key: 'frozen',
    header: h('已冻结', 'Frozen'),
    value: (r) => String(r.frozen),
    dictionary: YES_NO,
    width: 8,
  },
  { key: 'userCount', header: h('用户数', 'Users'), width: 8 },
  { key: 'cardCount', header: h('卡数', 'Cards'), width: 8 },
  { key: 'contacts', header: h('联系人', 'Contacts') },
  { key: 'contactInformation', header: h('联系方式', 'Contact information') },
];

export const RECORD_COLUMNS: SpreadsheetColumn<IcLedgerRecordView>[] = [
  { key: 'occurredAt', header: h('时间', 'Time'), value: (r) => sheetDateTime(r.occurredAt) },
  { key: 'kind', header: h('类型', 'Type'), dictionary: LEDGER_KIND, width: 16 },
  { key: 'customerName', header: h('用户名称', 'User name') },
  { key: 'cardNo', header: h('卡号', 'Card number'), width: 22 },
  money('amount', h('金额(元)', 'Amount (yuan)'), (r) => r.amountFen),
  money('balanceBefore', h('变动前余额(元)', 'Balance before (yuan)'), (r) => r.balanceBeforeFen),
  money('balanceAfter', h('变动后余额(元)', 'Balance after (yuan)'), (r) => r.balanceAfterFen),
  money('arrearsChange', h('欠费变动(元)', 'Arrears change (yuan)'), (r) => r.arrearsChangeFen),
  {
    key: 'reference',
    header: h('订单号', 'Order number'),
    width: 28,
    value: (r) => orderNumberOf(r.kind, r.reference),
  },
  { key: 'operatorName', header: h('操作员', 'Operator') },
];
