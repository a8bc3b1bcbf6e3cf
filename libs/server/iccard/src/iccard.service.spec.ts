import { DomainException } from '@voltdepot/server-core';
import type { IcCustomerView, SaveCustomerDto } from './dto/iccard.dto';
import { IcCardService, type CustomerLedger, type IcCardStore } from './iccard.service';

const scope = { rootIds: [1], pathPatterns: ['/1/%'] };

const person: SaveCustomerDto = {
  clientType: 1,
  userName: 'Han',
  certificateType: 'ID card',
  certificateNumber: 'ABC123',
  customerType: 'private',
  identityVerified: false,
};

/** Customers in memory; the ledger opens accounts numbered from 100. */
function setup() {
  const customers = new Map<number, IcCustomerView>();
  const opened: Parameters<CustomerLedger['openAccount']>[0][] = [];
  const store = {
    transaction: (work: (m: never) => Promise<unknown>) => work({ transaction: 1 } as never),
    organizationAccess: async (id: number) => (id === 1 ? 'visible' : id === 2 ? 'outside' : 'missing'),
    findCompany: async () => undefined,
    companyNumberTaken: async () => false,
    findCustomer: async (_m: unknown, id: number) => customers.get(id),
    saveCustomer: async (
      _m: unknown,
      id: number | undefined,
      dto: SaveCustomerDto & { organizationId: number },
    ) => {
      const saved = id ?? customers.size + 1;
      customers.set(saved, {
        ...(customers.get(saved) ?? {
          accountId: null,
          accountKind: null,
          balanceFen: null,
          arrearsFen: null,
        }),
        id: saved,
        organizationId: dto.organizationId,
        clientType: dto.clientType,
        groupId: dto.groupId ?? null,
        userName: dto.userName,
        certificateType: dto.certificateType,
        certificateNumber: dto.certificateNumber,
        customerType: dto.customerType,
        phone: null,
        companyId: null,
        companyName: null,
        gender: null,
        nation: null,
        address: null,
        identityVerified: dto.identityVerified,
        updatedAt: '2026-11-27T00:00:00.000Z',
      });
      return saved;
    },
    setCustomerAccount: async (_m: unknown, id: number, accountId: number) => {
      customers.get(id)!.accountId = accountId;
    },
    cardNoTaken: async (_m: unknown, cardNo: string) => cards.has(cardNo),
    insertCard: async (m: unknown, card: { cardNo: string }) => {
      cards.set(card.cardNo, { m, ...card });
    },
    findCard: async (_m: unknown, cardNo: string) =>
      cards.has(cardNo) ? { cardNo, status: 'notMade', certificateNumber: 'ABC123' } : undefined,
  } as unknown as IcCardStore;
  const cards = new Map<string, { m: unknown; cardNo: string }>();
  const announced: { m: unknown; cardNo: string; inserted: boolean }[] = [];
  const announcer = {
    announce: jest.fn(async (m: unknown, cardNo: string) => {
      announced.push({ m, cardNo, inserted: cards.get(cardNo)?.m === m });
      return {} as never;
    }),
    announceCustomerCards: jest.fn(async (_m: unknown, _customerId: number) => 2),
  };
  const afterAnnounce = jest.fn();
  const ledger: CustomerLedger = {
    openAccount: async (input) => {
      opened.push(input);
      return { id: 99 + opened.length, kind: input.kind, balanceFen: 0 };
    },
  };
  const service = new IcCardService(store, ledger, { scopeOf: async () => scope }, announcer, afterAnnounce);
  return { service, opened, customers, announced, announcer, afterAnnounce };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainException);
  return error as DomainException;
}

describe('IcCardService customers', () => {
  it('opens a personal account, a group account, and a sub-account of the group for its user', async () => {
    const { service, opened } = setup();
    await service.saveCustomer(5, undefined, person);
    const group = await service.saveCustomer(5, undefined, { ...person, clientType: 2, userName: 'Fleet' });
    const member = await service.saveCustomer(5, undefined, { ...person, clientType: 3, groupId: group.id });
    expect(opened.map((a) => [a.kind, a.parentId ?? null])).toEqual([
      ['personal', null],
      ['group', null],
      ['group_sub', group.accountId],
    ]);
    expect(member.accountId).toBe(102);
    expect(member.organizationId).toBe(1);
  });

  it('opens no second account on update, and refuses a change of client type', async () => {
    const { service, opened } = setup();
    const c = await service.saveCustomer(5, undefined, person);
    await service.saveCustomer(5, c.id, { ...person, userName: 'Han Meimei' });
    expect(opened).toHaveLength(1);
    const error = await failure(service.saveCustomer(5, c.id, { ...person, clientType: 2 }));
    expect(error).toMatchObject({ code: 'ICCARD_CLIENT_TYPE_FIXED', httpStatus: 422 });
  });

  it('refuses a group card whose group is not a group customer', async () => {
    const { service } = setup();
    const personal = await service.saveCustomer(5, undefined, person);
    const error = await failure(
      service.saveCustomer(5, undefined, { ...person, clientType: 3, groupId: personal.id }),
    );
    expect(error).toMatchObject({ code: 'ICCARD_NOT_GROUP_MEMBER', httpStatus: 422 });
  });

  it('refuses an organisation outside the caller scope or missing', async () => {
    const { service } = setup();
    for (const organizationId of [2, 3]) {
      const error = await failure(service.saveCustomer(5, undefined, { ...person, organizationId }));
      expect(error).toMatchObject({ code: 'ICCARD_ORGANIZATION_NOT_VISIBLE', httpStatus: 422 });
    }
  });
});

describe('IcCardService cards', () => {
  it('announces a registered card (not made) in the transaction that inserts it, then nudges the relay', async () => {
    const { service, announced, afterAnnounce } = setup();
    const holder = await service.saveCustomer(5, undefined, person);
    await service.createCard(5, { cardNo: 'C9', chip: 'CPU', cardType: 1 as const, customerId: holder.id });
    expect(announced).toEqual([{ m: { transaction: 1 }, cardNo: 'C9', inserted: true }]);
    expect(afterAnnounce).toHaveBeenCalledTimes(1);
  });

  it("announces a customer's cards when its name or organisation changes, not on other edits", async () => {
    const { service, announcer, afterAnnounce } = setup();
    const c = await service.saveCustomer(5, undefined, person);
    await service.saveCustomer(5, c.id, { ...person, customerType: 'VIP' });
    expect(announcer.announceCustomerCards).not.toHaveBeenCalled();
    await service.saveCustomer(5, c.id, { ...person, userName: 'Han Meimei' });
    expect(announcer.announceCustomerCards).toHaveBeenCalledWith({ transaction: 1 }, c.id);
    expect(afterAnnounce).toHaveBeenCalledTimes(1);
  });

  it('announces nothing for a repeated card number', async () => {
    const { service, announcer } = setup();
    const holder = await service.saveCustomer(5, undefined, person);
    const dto = { cardNo: 'C9', chip: 'CPU' as const, cardType: 1 as const, customerId: holder.id };
    await service.createCard(5, dto);
    const error = await failure(service.createCard(5, dto));
    expect(error.code).toBe('ICCARD_CARD_NUMBER_REPEATED');
    expect(announcer.announce).toHaveBeenCalledTimes(1);
  });
});
