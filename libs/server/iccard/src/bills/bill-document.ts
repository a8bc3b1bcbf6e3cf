import { orderNumberOf } from '@voltdepot/shared-contracts';
import type { DocumentModel } from '@voltdepot/server-documents';
import type { Localized, SpreadsheetColumn, SpreadsheetLanguage } from '@voltdepot/server-spreadsheet';
import { yuan } from './bill-statement';
import type { BillAccountKind, IcBillStatement, IcBillSummary } from './dto/bill.dto';

export const BILL_ACCOUNT_KIND_LABELS: Record<BillAccountKind, Localized> = {
  personal: { 'zh-CN': '个人账户', 'en-US': 'Personal account' },
  group: { 'zh-CN': '集团账户', 'en-US': 'Group account' },
  group_sub: { 'zh-CN': '集团子账户', 'en-US': 'Group sub-account' },
};

export const BILL_LINE_KIND_LABELS: Record<string, Localized> = {
  recharge: { 'zh-CN': '充值', 'en-US': 'Recharge' },
  refund: { 'zh-CN': '退款', 'en-US': 'Refund' },
  consumption: { 'zh-CN': '充电消费', 'en-US': 'Charging' },
  consumption_amendment: { 'zh-CN': '订单修正', 'en-US': 'Order amendment' },
  allocation: { 'zh-CN': '集团划拨', 'en-US': 'Group allocation' },
  reclaim: { 'zh-CN': '集团回收', 'en-US': 'Group reclaim' },
  correction: { 'zh-CN': '调账', 'en-US': 'Correction' },
};

const lineKind = (kind: string, lang: SpreadsheetLanguage) => BILL_LINE_KIND_LABELS[kind]?.[lang] ?? kind;

const T = {
  title: { 'zh-CN': '账户月度账单', 'en-US': 'Monthly account statement' },
  account: { 'zh-CN': '账户编号', 'en-US': 'Account' },
  kind: { 'zh-CN': '账户类型', 'en-US': 'Account type' },
  customer: { 'zh-CN': '客户', 'en-US': 'Customer' },
  month: { 'zh-CN': '账期', 'en-US': 'Month' },
  opening: { 'zh-CN': '期初余额(元)', 'en-US': 'Opening balance (yuan)' },
  recharged: { 'zh-CN': '充值(元)', 'en-US': 'Recharges (yuan)' },
  consumed: { 'zh-CN': '消费(元)', 'en-US': 'Consumption (yuan)' },
  refunded: { 'zh-CN': '退款(元)', 'en-US': 'Refunds (yuan)' },
  transferred: { 'zh-CN': '集团划拨净额(元)', 'en-US': 'Group transfers, net (yuan)' },
  corrected: { 'zh-CN': '调账(元)', 'en-US': 'Corrections (yuan)' },
  closing: { 'zh-CN': '期末余额(元)', 'en-US': 'Closing balance (yuan)' },
  orders: { 'zh-CN': '订单数', 'en-US': 'Orders' },
  lines: { 'zh-CN': '明细', 'en-US': 'Details' },
  time: { 'zh-CN': '时间', 'en-US': 'Time' },
  type: { 'zh-CN': '类型', 'en-US': 'Type' },
  reference: { 'zh-CN': '订单号', 'en-US': 'Order number' },
  amount: { 'zh-CN': '金额(元)', 'en-US': 'Amount (yuan)' },
  balance: { 'zh-CN': '余额(元)', 'en-US': 'Balance (yuan)' },
  total: { 'zh-CN': '合计', 'en-US': 'Total' },
  footer: {
    'zh-CN': '时间为业务时区 {zone}；余额为账户余额减欠款。生成于 {at}',
    'en-US':
      'Times in the business time zone {zone}; balances are the account balance less arrears. Made {at}',
  },
  file: { 'zh-CN': '账单', 'en-US': 'bill' },
  listFile: { 'zh-CN': '账单列表', 'en-US': 'bills' },
} satisfies Record<string, Localized>;

const yuanNumber = (fen: number) => fen / 100;

/** The statement as a document (the same model for its xlsx and its PDF). */
export function billDocument(
  statement: IcBillStatement,
  lang: SpreadsheetLanguage,
  context: { timeZone: string; madeAt: string },
): DocumentModel {
  const s = statement.summary;
  const t = (key: keyof typeof T) => T[key][lang];
  const lineSum = statement.lines.reduce((sum, l) => sum + l.amountFen, 0);
  return {
    title: t('title'),
    subtitle: `${s.name} · ${s.month}`,
    meta: [
      { label: t('customer'), value: s.name },
      { label: t('account'), value: String(s.accountId) },
      { label: t('kind'), value: BILL_ACCOUNT_KIND_LABELS[s.kind][lang] },
      { label: t('month'), value: s.month },
      { label: t('opening'), value: yuan(s.openingFen) },
      { label: t('closing'), value: yuan(s.closingFen) },
      { label: t('recharged'), value: yuan(s.rechargedFen) },
      { label: t('consumed'), value: yuan(s.consumedFen) },
      { label: t('refunded'), value: yuan(s.refundedFen) },
      { label: t('transferred'), value: yuan(s.transferredFen) },
      { label: t('corrected'), value: yuan(s.correctedFen) },
      { label: t('orders'), value: String(s.orderCount) },
    ],
    sections: [
      {
        title: t('lines'),
        columns: [
          { header: t('time'), width: 20 },
          { header: t('type'), width: 14 },
          { header: t('reference'), width: 24 },
          { header: t('amount'), width: 12, align: 'right', decimals: 2 },
          { header: t('balance'), width: 12, align: 'right', decimals: 2 },
        ],
        rows: statement.lines.map((l) => [
          l.occurredAt,
          lineKind(l.kind, lang),
          orderNumberOf(l.kind, l.reference),
          yuanNumber(l.amountFen),
          yuanNumber(l.balanceAfterFen),
        ]),
        totals: [t('total'), null, null, yuanNumber(lineSum), yuanNumber(s.closingFen)],
      },
    ],
    footer: t('footer').replace('{zone}', context.timeZone).replace('{at}', context.madeAt),
  };
}

/** A file name people can read: `账单-张三-2026-11.pdf`, `bill-Zhang San-2026-11.xlsx`. */
export function billFileName(summary: IcBillSummary, lang: SpreadsheetLanguage, ext: 'pdf' | 'xlsx'): string {
  const name = [...summary.name]
    .map((ch) => (/[\\/:*?"<>|]/.test(ch) || ch.charCodeAt(0) < 0x20 ? '_' : ch))
    .join('');
  return `${T.file[lang]}-${name}-${summary.month}.${ext}`;
}

export function billListFileName(month: string, lang: SpreadsheetLanguage): string {
  return `${T.listFile[lang]}-${month}.xlsx`;
}

const money = (key: keyof IcBillSummary, header: Localized): SpreadsheetColumn<IcBillSummary> => ({
  key,
  header,
  value: (row) => yuanNumber(row[key] as number),
  numFmt: '0.00',
  width: 16,
});

/** The bill list's columns (export). */
export const BILL_LIST_COLUMNS: SpreadsheetColumn<IcBillSummary>[] = [
  { key: 'month', header: T.month, width: 10 },
  { key: 'accountId', header: T.account, width: 10 },
  { key: 'name', header: T.customer, width: 20 },
  { key: 'kind', header: T.kind, value: (row, lang) => BILL_ACCOUNT_KIND_LABELS[row.kind][lang], width: 14 },
  money('openingFen', T.opening),
  money('rechargedFen', T.recharged),
  money('consumedFen', T.consumed),
  money('refundedFen', T.refunded),
  money('transferredFen', T.transferred),
  money('correctedFen', T.corrected),
  money('closingFen', T.closing),
  { key: 'orderCount', header: T.orders, width: 10 },
];
