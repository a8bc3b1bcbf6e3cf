import type { GridPage } from '@voltdepot/shared-contracts';
import type {
  ActionQuery,
  CardQuery,
  CompanyQuery,
  CustomerQuery,
  IcCardActionView,
  IcCardView,
  IcCompanyView,
  IcCustomerView,
} from '../dto/iccard.dto';
import type { IcCardDataScope, IcCardDataScopeProvider } from '../iccard-data-scope';
import { IcCardErrorCode, IcCardException } from '../iccard.exception';
import type { IcCardRepository } from '../iccard.repository';
import type {
  AccountQuery,
  IcAccountView,
  IcCardDetail,
  IcGroupInfo,
  IcLedgerRecordPage,
  IcLedgerRecordView,
  RecordQuery,
} from './dto/iccard-query.dto';
import { IcCardQueryErrorCode, IcCardQueryException } from './iccard-query.exception';
import type { IcCardQueryRepository } from './iccard-query.repository';
import { exportBatches } from './export-batches';

/** What the service reads of the area's own repository (grids and single records by scope). */
export type IcCardListStore = Pick<
  IcCardRepository,
  'transaction' | 'findCustomer' | 'findCard' | 'companyPage' | 'customerPage' | 'cardPage' | 'actionPage'
>;
export type IcCardQueryStore = Pick<
  IcCardQueryRepository,
  'accountPage' | 'accountOfCustomer' | 'groupMembers' | 'recordPage' | 'lastActions'
>;

/** The most rows one export writes; more is refused (422), so a sheet is never silently cut short. */
export const ICCARD_EXPORT_LIMIT = 50_000;
/** Rows read per query while an export streams. */
export const ICCARD_EXPORT_BATCH = 1_000;
/** What the card detail page shows of a card's actions and its account's records. */
const DETAIL_LAST = 50;

type Pager<T> = (scope: IcCardDataScope, page: number, size: number) => Promise<{ list: T[]; total: number }>;

/**
 * The IC-card screens' reads: accounts with their figures, a group with its users, the ledger records
 * of the accounts (recharges, refunds, consumption...), a card's detail, and every list as rows for its
 * export. Everything within the caller's data scope: what lies outside reads as missing.
 */
export class IcCardQueryService {
  constructor(
    private readonly lists: IcCardListStore,
    private readonly queries: IcCardQueryStore,
    private readonly scopes: IcCardDataScopeProvider,
    private readonly exportLimit = ICCARD_EXPORT_LIMIT,
    private readonly exportBatch = ICCARD_EXPORT_BATCH,
  ) {}

  async accountPage(
    userId: number,
    q: AccountQuery,
    page: number,
    size: number,
  ): Promise<GridPage<IcAccountView>> {
    return this.queries.accountPage(await this.scopes.scopeOf(userId), q, page, size);
  }

  async recordPage(userId: number, q: RecordQuery, page: number, size: number): Promise<IcLedgerRecordPage> {
    return this.queries.recordPage(await this.scopes.scopeOf(userId), q, page, size);
  }

  /** A group customer (client type 2) with its account and its users. */
  async groupInfo(userId: number, id: number): Promise<IcGroupInfo> {
    const scope = await this.scopes.scopeOf(userId);
    const group = await this.lists.transaction((m) => this.lists.findCustomer(m, id, scope));
    const account = group?.clientType === 2 ? await this.queries.accountOfCustomer(id, scope) : undefined;
    if (!group || !account)
      throw new IcCardQueryException(
        IcCardQueryErrorCode.GroupNotFound,
        group ? `customer ${id} is not a group` : `group ${id} not found`,
      );
    return { group, account, members: await this.queries.groupMembers(id, scope) };
  }

  /** A card with its holder, account, last actions and the account's last records. */
  async cardDetail(userId: number, cardNo: string): Promise<IcCardDetail> {
    const scope = await this.scopes.scopeOf(userId);
    const found = await this.lists.transaction(async (m) => {
      const card = await this.lists.findCard(m, cardNo, scope);
      return card && { card, customer: await this.lists.findCustomer(m, card.customerId, scope) };
    });
    const account = found?.customer && (await this.queries.accountOfCustomer(found.customer.id, scope));
    if (!found?.customer || !account)
      throw new IcCardException(IcCardErrorCode.CardNotFound, `card ${cardNo} not found`);
    const { certificateNumber: _certificate, ...card } = found.card;
    const [actions, records] = await Promise.all([
      this.queries.lastActions(card.id, DETAIL_LAST),
      this.queries.recordPage(scope, { accountId: card.accountId }, 1, DETAIL_LAST),
    ]);
    return { card, customer: found.customer, account, actions, records: records.list };
  }

  // Exports: each list's rows with its own filters, in batches; refused when over the limit.

  companyRows(userId: number, q: CompanyQuery): Promise<AsyncIterable<IcCompanyView[]>> {
    return this.rows(userId, (s, page, size) => this.lists.companyPage(s, q, page, size));
  }

  customerRows(userId: number, q: CustomerQuery): Promise<AsyncIterable<IcCustomerView[]>> {
    return this.rows(userId, (s, page, size) => this.lists.customerPage(s, q, page, size));
  }

  cardRows(userId: number, q: CardQuery): Promise<AsyncIterable<IcCardView[]>> {
    return this.rows(userId, (s, page, size) => this.lists.cardPage(s, q, page, size));
  }

  actionRows(userId: number, q: ActionQuery): Promise<AsyncIterable<IcCardActionView[]>> {
    return this.rows(userId, (s, page, size) => this.lists.actionPage(s, q, page, size));
  }

  accountRows(userId: number, q: AccountQuery): Promise<AsyncIterable<IcAccountView[]>> {
    return this.rows(userId, (s, page, size) => this.queries.accountPage(s, q, page, size));
  }

  recordRows(userId: number, q: RecordQuery): Promise<AsyncIterable<IcLedgerRecordView[]>> {
    return this.rows(userId, (s, page, size) => this.queries.recordPage(s, q, page, size));
  }

  private async rows<T>(userId: number, pageOf: Pager<T>): Promise<AsyncIterable<T[]>> {
    const scope = await this.scopes.scopeOf(userId);
    return exportBatches((page, size) => pageOf(scope, page, size), this.exportLimit, this.exportBatch);
  }
}
