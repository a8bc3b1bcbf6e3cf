import { CommonException, ValidationException } from '@voltdepot/server-core';
import { CommonErrorCodes } from '@voltdepot/shared-contracts';
import {
  DocumentFontMissingError,
  type DocumentModel,
  renderDocumentPdf,
  renderDocumentXlsx,
} from '@voltdepot/server-documents';
import type { SpreadsheetLanguage } from '@voltdepot/server-spreadsheet';
import type { IcCardDataScopeProvider } from '../iccard-data-scope';
import { IcCardErrorCode, IcCardException } from '../iccard.exception';
import { exportBatches } from '../queries/export-batches';
import { billDocument, billFileName, billListFileName } from './bill-document';
import type { BillAccount, IcBillRepository } from './bill.repository';
import {
  billFigures,
  billFiguresOfPostings,
  billLines,
  businessTime,
  monthOf,
  monthRange,
} from './bill-statement';
import type { BillQuery, IcBillStatement, IcBillSummary } from './dto/bill.dto';

/** The business time zone (identity's `BusinessTimeZoneReader` fits; the app wires it in). */
export type BillTimeZone = { read(): Promise<string> };

/** Injection token of the time zone given to `IcCardModule.forRoot` (`timeZone`). */
export const ICCARD_BILL_TIME_ZONE = Symbol('ICCARD_BILL_TIME_ZONE');

/** Most rows the bill list exports at once; more is refused (422), as every IC-card list's export. */
export const BILL_EXPORT_MAX_ROWS = 50_000;
/** Accounts read (and summed) per query while the bill list exports. */
const BILL_EXPORT_BATCH = 500;

/**
 * Monthly bills of the customers' accounts (docs/ic-cards.md, Bills): the grid of one month's figures,
 * one account's statement with its lines, and the statement as xlsx or PDF. Months are calendar months
 * in the business time zone; a month still to come has no bill (400).
 */
export class IcBillService {
  constructor(
    private readonly repo: IcBillRepository,
    private readonly scopes: IcCardDataScopeProvider,
    private readonly timeZone: BillTimeZone,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async page(userId: number, q: BillQuery, pageNo: number, size: number) {
    const zone = await this.timeZone.read();
    const { start, end } = this.range(q.month, zone);
    const scope = await this.scopes.scopeOf(userId);
    const accounts = await this.repo.accounts(scope, q, end, size, (pageNo - 1) * size);
    return { list: await this.summaries(accounts.list, q.month, start, end), total: accounts.total };
  }

  async statement(userId: number, accountId: number, month: string): Promise<IcBillStatement> {
    const zone = await this.timeZone.read();
    return this.statementIn(zone, userId, accountId, month);
  }

  /** The statement as a file: its name in the language and its bytes. */
  async document(
    userId: number,
    accountId: number,
    month: string,
    lang: SpreadsheetLanguage,
    format: 'pdf' | 'xlsx',
  ): Promise<{ fileName: string; body: Buffer }> {
    const zone = await this.timeZone.read();
    const statement = await this.statementIn(zone, userId, accountId, month);
    const model: DocumentModel = billDocument(statement, lang, {
      timeZone: zone,
      madeAt: businessTime(this.now(), zone),
    });
    const body = format === 'pdf' ? await this.pdf(model) : await renderDocumentXlsx(model);
    return { fileName: billFileName(statement.summary, lang, format), body };
  }

  /**
   * The whole filtered list of a month (export) in batches. The month and the size are checked before
   * the first byte: a month to come is a 400, more than BILL_EXPORT_MAX_ROWS accounts a 422.
   */
  async exportBatches(
    userId: number,
    q: BillQuery,
    limit = BILL_EXPORT_MAX_ROWS,
    batch = BILL_EXPORT_BATCH,
  ): Promise<AsyncIterable<IcBillSummary[]>> {
    const zone = await this.timeZone.read();
    const { start, end } = this.range(q.month, zone);
    const scope = await this.scopes.scopeOf(userId);
    return exportBatches(
      async (page, size) => {
        const accounts = await this.repo.accounts(scope, q, end, size, (page - 1) * size);
        return { list: await this.summaries(accounts.list, q.month, start, end), total: accounts.total };
      },
      limit,
      batch,
    );
  }

  listFileName(month: string, lang: SpreadsheetLanguage): string {
    return billListFileName(month, lang);
  }

  private async pdf(model: DocumentModel): Promise<Buffer> {
    try {
      return await renderDocumentPdf(model);
    } catch (error) {
      // The machine lacks the font: 503 saying which file and how to install it, not a bare 500.
      if (error instanceof DocumentFontMissingError) {
        throw new CommonException(CommonErrorCodes.Unavailable, error.message);
      }
      throw error;
    }
  }

  private async statementIn(zone: string, userId: number, accountId: number, month: string) {
    const { start, end } = this.range(month, zone);
    const account = await this.repo.account(await this.scopes.scopeOf(userId), accountId);
    if (!account) {
      throw new IcCardException(IcCardErrorCode.CustomerNotFound, `No customer account ${accountId}`);
    }
    const { openingFen, postings } = await this.repo.postings(accountId, start, end);
    return {
      summary: { ...summaryBase(account, month), ...billFiguresOfPostings(openingFen, postings) },
      lines: billLines(openingFen, postings, (at) => businessTime(at, zone)),
    };
  }

  private async summaries(
    accounts: BillAccount[],
    month: string,
    start: Date,
    end: Date,
  ): Promise<IcBillSummary[]> {
    const totals = await this.repo.totals(
      accounts.map((a) => a.accountId),
      start,
      end,
    );
    return accounts.map((a) => {
      const t = totals.get(a.accountId)!;
      return { ...summaryBase(a, month), ...billFigures(t.openingFen, t.totals, t.orderCount) };
    });
  }

  private range(month: string, zone: string) {
    if (month > monthOf(this.now(), zone)) {
      throw new ValidationException([{ field: 'month', message: 'month must not be in the future' }]);
    }
    return monthRange(month, zone);
  }
}

function summaryBase(a: BillAccount, month: string) {
  return { accountId: a.accountId, kind: a.kind, customerId: a.customerId, name: a.name, month };
}
