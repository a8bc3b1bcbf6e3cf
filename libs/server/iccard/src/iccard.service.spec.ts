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
    transaction: (work: (m: never) => Promise<unknown>) => work({} as never),
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
  } as unknown as IcCardStore;
  const ledger: CustomerLedger = {
    openAccount: async (input) => {
      opened.push(input);
      return { id: 99 + opened.length, kind: input.kind, balanceFen: 0 };
    },
  };
  const service = new IcCardService(store, ledger, { scopeOf: async () => scope });
  return { service, opened, customers };
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
