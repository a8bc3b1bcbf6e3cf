import {
  sendXlsx,
  sheetDateTime,
  type SpreadsheetColumn,
  type SpreadsheetLanguage,
  type XlsxHttpResponse,
} from '@voltdepot/server-spreadsheet';
import type { UnknownPileAttempt } from '../piles/gateway-registry.repository';

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

/** Every unregistered charge point the gateway turned away, newest first, as `page` reads them. */
export async function sendUnknownPiles(
  page: (page: number, size: number) => Promise<{ list: UnknownPileAttempt[] }>,
  language: SpreadsheetLanguage,
  res: XlsxHttpResponse,
): Promise<void> {
  const batchSize = 1000;
  async function* batches(): AsyncGenerator<UnknownPileAttempt[]> {
    for (let n = 1; ; n++) {
      const { list } = await page(n, batchSize);
      if (list.length > 0) yield list;
      if (list.length < batchSize) return;
    }
  }
  await sendXlsx(
    res,
    `${FILE_NAME[language]}.xlsx`,
    'unknown piles',
    UNKNOWN_PILE_COLUMNS,
    batches(),
    language,
  );
}
