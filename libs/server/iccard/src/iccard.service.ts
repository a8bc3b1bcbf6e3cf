import type { GridPage } from '@voltdepot/shared-contracts';
import type { EntityManager } from 'typeorm';
import type {
  CardQuery,
  CompanyQuery,
  CreateCardDto,
  CustomerQuery,
  IcCardView,
  IcCompanyView,
  IcCustomerView,
  SaveCompanyDto,
  SaveCustomerDto,
} from './dto/iccard.dto';
import type { CardAnnouncer } from './card-announcer.writer';
import type { IcCardDataScope, IcCardDataScopeProvider } from './iccard-data-scope';
import { IcCardErrorCode, IcCardException } from './iccard.exception';
import type { IcCardLedger } from './iccard-ledger';
import type { IcCardRepository } from './iccard.repository';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type IcCardStore = Pick<
  IcCardRepository,
  | 'transaction'
  | 'organizationAccess'
  | 'companyPage'
  | 'findCompany'
  | 'companyNumberTaken'
  | 'saveCompany'
  | 'customerPage'
  | 'findCustomer'
  | 'saveCustomer'
  | 'setCustomerAccount'
  | 'cardPage'
  | 'findCard'
  | 'cardNoTaken'
  | 'insertCard'
>;

export type CustomerLedger = Pick<IcCardLedger, 'openAccount'>;

/** The account kind of each client type: personal, a group's account, a group user's sub-account. */
const ACCOUNT_KIND = { 1: 'personal', 2: 'group', 3: 'group_sub' } as const;

/**
 * IC-card companies, customers and cards (§1, §5, §6). A customer gets its ledger account when created:
 * a personal account, a group account for a group, a sub-account of its group's for a group external
 * card. A card draws on its customer's account. A card's registration is announced
 * (`iccard.card.changed`, through the outbox) in the transaction that inserts it; `afterAnnounce` runs
 * after the commit (the app nudges its outbox relay).
 */
export class IcCardService {
  constructor(
    private readonly repository: IcCardStore,
    private readonly ledger: CustomerLedger,
    private readonly scopes: IcCardDataScopeProvider,
    private readonly announcer: CardAnnouncer,
    private readonly afterAnnounce: () => void = () => undefined,
  ) {}

  async companyPage(
    userId: number,
    q: CompanyQuery,
    page: number,
    size: number,
  ): Promise<GridPage<IcCompanyView>> {
    return this.repository.companyPage(await this.scopes.scopeOf(userId), q, page, size);
  }

  async customerPage(
    userId: number,
    q: CustomerQuery,
    page: number,
    size: number,
  ): Promise<GridPage<IcCustomerView>> {
    return this.repository.customerPage(await this.scopes.scopeOf(userId), q, page, size);
  }

  async cardPage(userId: number, q: CardQuery, page: number, size: number): Promise<GridPage<IcCardView>> {
    return this.repository.cardPage(await this.scopes.scopeOf(userId), q, page, size);
  }

  async saveCompany(userId: number, id: number | undefined, dto: SaveCompanyDto): Promise<IcCompanyView> {
    const scope = await this.scopes.scopeOf(userId);
    return this.repository.transaction(async (m) => {
      const previous = id === undefined ? undefined : await this.repository.findCompany(m, id, scope);
      if (id !== undefined && !previous) throw companyNotFound(id);
      // A modification without an organisation keeps the company where it is.
      const organizationId = await this.organizationOf(scope, dto.organizationId ?? previous?.organizationId);
      if (await this.repository.companyNumberTaken(m, dto.number, id))
        throw new IcCardException(
          IcCardErrorCode.CompanyNumberRepeated,
          `a company numbered "${dto.number}" already exists`,
          [{ field: 'number', message: 'already used' }],
        );
      const saved = await this.repository.saveCompany(m, id, { ...dto, organizationId });
      return (await this.repository.findCompany(m, saved, scope))!;
    });
  }

  /**
   * A customer, with its ledger account opened on creation. The account is opened by the ledger in its
   * own transaction while this one holds the new customer's row: should this one fail after, an empty
   * account is left over, never a customer without one. A new name or organisation is announced for each
   * of its cards (`iccard.card.changed`), in this transaction.
   */
  async saveCustomer(userId: number, id: number | undefined, dto: SaveCustomerDto): Promise<IcCustomerView> {
    const scope = await this.scopes.scopeOf(userId);
    let announced = 0;
    const customer = await this.repository.transaction(async (m) => {
      const previous = id === undefined ? undefined : await this.repository.findCustomer(m, id, scope, true);
      if (id !== undefined && !previous)
        throw new IcCardException(IcCardErrorCode.CustomerNotFound, `customer ${id} not found`);
      // A modification without an organisation keeps the customer where it is.
      const organizationId = await this.organizationOf(scope, dto.organizationId ?? previous?.organizationId);
      if (previous && (previous.clientType !== dto.clientType || previous.groupId !== (dto.groupId ?? null)))
        throw new IcCardException(
          IcCardErrorCode.ClientTypeFixed,
          'the client type and group of a customer cannot change: its account was opened for them',
          [{ field: 'clientType', message: 'cannot change' }],
        );
      if (dto.companyId && !(await this.repository.findCompany(m, dto.companyId, scope)))
        throw companyNotFound(dto.companyId, 'companyId');
      const group = dto.groupId ? await this.groupOf(m, scope, dto.groupId, 'groupId') : undefined;
      const saved = await this.repository.saveCustomer(m, id, { ...dto, organizationId });
      if (!previous) {
        const account = await this.ledger.openAccount({
          kind: ACCOUNT_KIND[dto.clientType],
          name: dto.userName,
          parentId: group?.accountId ?? null,
          customerId: saved,
          companyId: dto.companyId ?? null,
        });
        await this.repository.setCustomerAccount(m, saved, account.id);
      }
      // Its cards' charging cards show the holder's name and sit in its organisation: tell the pile's side.
      if (previous && (previous.userName !== dto.userName || previous.organizationId !== organizationId))
        announced = await this.announcer.announceCustomerCards(m, saved);
      return (await this.repository.findCustomer(m, saved, scope))!;
    });
    if (announced) this.afterAnnounce();
    return customer;
  }

  /** A card record (not made yet) drawing on its customer's account; its number is unique (§5). */
  async createCard(userId: number, dto: CreateCardDto): Promise<IcCardView> {
    const scope = await this.scopes.scopeOf(userId);
    const created = await this.repository.transaction(async (m) => {
      const customer = await this.repository.findCustomer(m, dto.customerId, scope);
      if (!customer)
        throw new IcCardException(IcCardErrorCode.CustomerNotFound, `customer ${dto.customerId} not found`, [
          { field: 'customerId', message: 'not found' },
        ]);
      if (await this.repository.cardNoTaken(m, dto.cardNo))
        throw new IcCardException(
          IcCardErrorCode.CardNumberRepeated,
          `card self number ${dto.cardNo} is already used`,
          { messageCode: 'selfNumberRepeated', fields: [{ field: 'cardNo', message: 'already used' }] },
        );
      await this.repository.insertCard(m, { ...dto, accountId: customer.accountId! });
      await this.announcer.announce(m, dto.cardNo);
      const { certificateNumber: _certificate, ...card } = (await this.repository.findCard(
        m,
        dto.cardNo,
        scope,
      ))!;
      return card;
    });
    this.afterAnnounce();
    return created;
  }

  /** A group customer (client type 2) in the caller's scope, with its account. */
  async groupOf(m: EntityManager, scope: IcCardDataScope, id: number, field: string) {
    const group = await this.repository.findCustomer(m, id, scope);
    if (group?.clientType !== 2 || group.accountId === null)
      throw new IcCardException(IcCardErrorCode.NotGroupMember, `customer ${id} is not a group`, [
        { field, message: 'must be a group customer' },
      ]);
    return { ...group, accountId: group.accountId };
  }

  private async organizationOf(scope: IcCardDataScope, requested: number | undefined): Promise<number> {
    const access =
      requested === undefined ? 'missing' : await this.repository.organizationAccess(requested, scope);
    if (requested === undefined && scope.rootIds.length) return scope.rootIds[0];
    if (access !== 'visible') {
      const message =
        requested === undefined
          ? 'you belong to no organization: choose one'
          : access === 'missing'
            ? `organization ${requested} does not exist`
            : `organization ${requested} is outside your data scope`;
      throw new IcCardException(IcCardErrorCode.OrganizationNotVisible, message, [
        { field: 'organizationId', message },
      ]);
    }
    return requested!;
  }
}

function companyNotFound(id: number, field?: string) {
  return new IcCardException(
    IcCardErrorCode.CompanyNotFound,
    `company ${id} not found`,
    field ? [{ field, message: 'not found' }] : undefined,
  );
}
