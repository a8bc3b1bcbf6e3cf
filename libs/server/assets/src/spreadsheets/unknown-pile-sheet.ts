import {
  sendXlsx,
  sheetDateTime,
  type SpreadsheetColumn,
  type SpreadsheetLanguage,
  type XlsxHttpResponse,
} from '@voltdepot/server-spreadsheet';
import type { UnknownPileAttempt } from '../piles/piles.dto';

const h = (zh: string, en: string) => ({ 'zh-CN': zh, 'en-US': en });

/** The unknown-pile list as the console shows it; times in the business time zone. */
export const UNKNOWN_PILE_COLUMNS: SpreadsheetColumn<UnknownPileAttempt>[] = [
  { key: 'chargePointId', header: h('充电桩标识', 'Charge point id'), width: 28 },
  {
    key: 'remoteAddresses',
    header: h('来源地址', 'Remote addresses'),
    width: 36,
    value: (row) => row.remoteAddresses.join(', '),
  },
  { key: 'attempts', header: h('尝试次数', 'Attempts') },
  {
    key: 'firstSeenAt',
    header: h('首次出现', 'First seen'),
    width: 20,
    value: (row) => sheetDateTime(row.firstSeenAt),
  },
  {
    key: 'lastSeenAt',
    header: h('最近出现', 'Last seen'),
    width: 20,
    value: (row) => sheetDateTime(row.lastSeenAt),
  },
];

const FILE_NAME = h('未知充电桩', 'unknown-charging-piles');

/**
 * The most unknown piles one export writes (newest first): the gateway adds a row for every id that
 * tries to connect, so the list has no bound of its own.
 */
export const UNKNOWN_PILE_EXPORT_LIMIT = 50_000;

/** The unregistered charge points the gateway turned away, newest first, as one read gave them. */
export async function sendUnknownPiles(
  rows: UnknownPileAttempt[],
  language: SpreadsheetLanguage,
  res: XlsxHttpResponse,
): Promise<void> {
  await sendXlsx(res, `${FILE_NAME[language]}.xlsx`, 'unknown piles', UNKNOWN_PILE_COLUMNS, [rows], language);
}
