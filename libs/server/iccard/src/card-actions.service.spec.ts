import { DomainException } from '@voltdepot/server-core';
import type { CardStatus } from '@voltdepot/shared-contracts';
import { CardActionsService, type CardActionLedger, type CardActionStore } from './card-actions.service';
import type { IcCardActionView } from './dto/iccard.dto';
import type { CardRecord, NewCardAction } from './iccard.repository';

const scope = { rootIds: [1], pathPatterns: ['/1/%'] };

/** The repository in memory: one card, its actions by key. */
function fakeStore(status: CardStatus) {
  const card: CardRecord = {
    id: 7,
    cardNo: 'C1',
    chip: 'CPU',
    cardType: 1,
    status,
    customerId: 3,
    customerName: 'Han',
    accountId: 11,
    balanceFen: 0,
    issuedAt: '2026-11-27T00:00:00.000Z',
    updatedAt: '2026-11-27T00:00:00.000Z',
    certificateNumber: 'ABC123',
  };
  const actions = new Map<string, NewCardAction & { view: IcCardActionView }>();
  const transactions = { opened: 0, committed: [] as unknown[] };
  const store: CardActionStore = {
    transaction: async (work) => {
      const m = { transaction: ++transactions.opened } as never;
      const result = await work(m);
      transactions.committed.push(m);
      return result;
    },
    findCard: async (_m, cardNo) => (cardNo === card.cardNo ? { ...card } : undefined),
    findCustomer: async () => undefined,
    actionByKey: async (_m, key) => {
      const a = actions.get(key);
      return a && { ...a.view, requestHash: a.requestHash };
    },
    insertAction: async (_m, a) => {
      const view: IcCardActionView = {
        id: actions.size + 1,
        cardNo: card.cardNo,
        customerName: card.customerName,
        action: a.action,
        statusBefore: a.statusBefore,
        statusAfter: a.statusAfter,
        notes: a.notes,
        amountFen: a.amountFen,
        balanceBeforeFen: null,
        balanceAfterFen: null,
        operatorId: a.operatorId,
        occurredAt: '2026-11-27T00:00:00.000Z',
      };
      actions.set(a.idempotencyKey, { ...a, view });
      return view;
    },
    setCardStatus: async (_m, _id, next) => {
      card.status = next;
    },
    postedBalanceBefore: async () => undefined,
    actionPage: async () => ({ list: [], total: 0 }),
  };
  return { store, card, actions, transactions };
}

/** The announcer: what it saw of the card, in which transaction. */
function fakeAnnouncer(card: CardRecord) {
  const announced: { m: unknown; cardNo: string; status: CardStatus }[] = [];
  const announcer = {
    announce: jest.fn(async (m: unknown, cardNo: string) => {
      announced.push({ m, cardNo, status: card.status });
      return {} as never;
    }),
  };
  return { announcer, announced };
}

/** The ledger in memory: one account, postings by key (a key posts once). */
function fakeLedger(balanceFen: number) {
  const account = { id: 11, kind: 'personal', balanceFen };
  const posted = new Map<
    string,
    { id: number; replayed: boolean; entries: { accountId: number; amountFen: number }[] }
  >();
  const post = (key: string, amountFen: number) => {
    const before = posted.get(key);
    if (before) return { ...before, replayed: true };
    account.balanceFen += amountFen;
    const tx = { id: posted.size + 1, replayed: false, entries: [{ accountId: 11, amountFen }] };
    posted.set(key, tx);
    return tx;
  };
  const ledger: CardActionLedger = {
    account: async () => ({ ...account }),
    recharge: async (m) => post(m.idempotencyKey, m.amountFen),
    refund: async (m) => {
      // Like the ledger: a key posted before replays before any rule is checked.
      if (!posted.has(m.idempotencyKey) && account.balanceFen <= 0)
        throw new DomainException('LEDGER_REFUND_NOT_ALLOWED', 'refund refused', 422);
      return post(m.idempotencyKey, -(m.amountFen ?? account.balanceFen));
    },
    allocate: jest.fn(),
    reclaim: jest.fn(),
    linkCard: jest.fn(async () => undefined),
  };
  return { ledger, account, posted };
}

function serviceWith(status: CardStatus, balanceFen: number) {
  const s = fakeStore(status);
  const l = fakeLedger(balanceFen);
  const a = fakeAnnouncer(s.card);
  const afterAnnounce = jest.fn(() => {
    // The relay is nudged only once the transaction holding the event has committed.
    expect(s.transactions.committed.at(-1)).toEqual({ transaction: s.transactions.opened });
  });
  const service = new CardActionsService(
    s.store,
    l.ledger,
    { scopeOf: async () => scope },
    a.announcer,
    afterAnnounce,
  );
  return { service, ...s, ...l, ...a, afterAnnounce };
}

async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainException);
  return error as DomainException;
}

describe('CardActionsService', () => {
  it('makes a card: normal, linked to its account for the piles, recorded', async () => {
    const { service, card, ledger, actions } = serviceWith('notMade', 0);
    const result = await service.perform(5, 'C1', 'makeCpu', { requestId: 'req-make-1' });
    expect(card.status).toBe('normal');
    expect(ledger.linkCard).toHaveBeenCalledWith('C1', 11);
    expect(result.record).toMatchObject({ statusBefore: 'notMade', statusAfter: 'normal', operatorId: 5 });
    expect(actions.size).toBe(1);
  });

  it('recharges once per request id, answering the first record on a retry', async () => {
    const { service, account, posted, actions } = serviceWith('normal', 0);
    const dto = { requestId: 'req-recharge-1', presentedCardNo: 'C1', amount: 1050 };
    const first = await service.perform(5, 'C1', 'recharge', dto);
    const again = await service.perform(5, 'C1', 'recharge', dto);
    expect(account.balanceFen).toBe(1050);
    expect(posted.size).toBe(1);
    expect(actions.size).toBe(1);
    expect(first).toMatchObject({ replayed: false, record: { amountFen: 1050 } });
    expect(again).toMatchObject({ replayed: true, record: { id: first.record.id } });
  });

  it('refuses a request id reused for another request', async () => {
    const { service } = serviceWith('normal', 0);
    await service.perform(5, 'C1', 'recharge', { requestId: 'req-r-2', presentedCardNo: 'C1', amount: 100 });
    const error = await refusal(
      service.perform(5, 'C1', 'recharge', { requestId: 'req-r-2', presentedCardNo: 'C1', amount: 200 }),
    );
    expect(error).toMatchObject({ code: 'ICCARD_IDEMPOTENCY_CONFLICT', httpStatus: 409 });
  });

  it('refuses a recharge of a lost card ("an abnormal card cannot continue") and posts nothing', async () => {
    const { service, posted, actions } = serviceWith('lost', 0);
    const error = await refusal(
      service.perform(5, 'C1', 'recharge', { requestId: 'req-r-3', presentedCardNo: 'C1', amount: 100 }),
    );
    expect(error).toMatchObject({
      code: 'ICCARD_ACTION_REFUSED',
      httpStatus: 422,
      message: 'An abnormal card cannot continue',
      details: { messageCode: 'cardAbnormal' },
    });
    expect(posted.size).toBe(0);
    expect(actions.size).toBe(0);
  });

  it('refunds the whole balance when no amount is given, noting askLogout', async () => {
    const { service, account } = serviceWith('normal', 800);
    const result = await service.perform(5, 'C1', 'refundWithCard', {
      requestId: 'req-f-1',
      presentedCardNo: 'C1',
    });
    expect(account.balanceFen).toBe(0);
    expect(result.record).toMatchObject({ amountFen: -800, notes: ['askLogout'] });
  });

  it('answers a ledger refusal in the area words (the balance emptied meanwhile)', async () => {
    const { service, ledger } = serviceWith('normal', 800);
    // The card's balance was read at 800, a consumption empties it before the refund posts.
    ledger.refund = async () => {
      throw new DomainException('LEDGER_REFUND_NOT_ALLOWED', 'refund refused', 422);
    };
    const error = await refusal(
      service.perform(5, 'C1', 'refundWithCard', { requestId: 'req-f-2', presentedCardNo: 'C1' }),
    );
    expect(error.details).toEqual({ messageCode: 'refundBalanceNotPositive' });
  });

  it('a retry after the posting committed and its record did not judges the balance the posting saw', async () => {
    const { service, store, account, posted } = serviceWith('normal', 800);
    // First attempt: the whole balance refunded in the ledger, then the record's transaction failed.
    await fakeRefund();
    async function fakeRefund() {
      account.balanceFen = 0;
      posted.set('iccard:card:req-f-3', {
        id: 9,
        replayed: false,
        entries: [{ accountId: 11, amountFen: -800 }],
      });
    }
    store.postedBalanceBefore = async (_m, key) => (key === 'iccard:card:req-f-3' ? 800 : undefined);
    const result = await service.perform(5, 'C1', 'refundWithCard', {
      requestId: 'req-f-3',
      presentedCardNo: 'C1',
    });
    expect(result).toMatchObject({ replayed: false, record: { amountFen: -800 } });
    expect(posted.size).toBe(1);
  });

  it('reports a card lost by the holder certificate, refusing another certificate', async () => {
    const { service, card } = serviceWith('normal', 0);
    const error = await refusal(
      service.perform(5, 'C1', 'reportLoss', { requestId: 'req-l-1', certificateNumber: 'XYZ' }),
    );
    expect(error.details).toEqual({ messageCode: 'idNumberMismatch' });
    await service.perform(5, 'C1', 'reportLoss', { requestId: 'req-l-2', certificateNumber: 'abc 123' });
    expect(card.status).toBe('lost');
  });

  it('answers 404 for a card outside the scope or unknown', async () => {
    const { service } = serviceWith('normal', 0);
    const error = await refusal(service.perform(5, 'C2', 'read', { requestId: 'req-x-1' }));
    expect(error).toMatchObject({ code: 'ICCARD_CARD_NOT_FOUND', httpStatus: 404 });
  });

  describe('announces the card to the pile (iccard.card.changed)', () => {
    it.each([
      ['makeCpu', 'notMade', { requestId: 'r' }, 'normal'],
      ['reportLoss', 'normal', { requestId: 'r', certificateNumber: 'ABC123' }, 'lost'],
      ['reportLoss', 'occupied', { requestId: 'r', certificateNumber: 'ABC123' }, 'lost'],
      ['releaseLoss', 'lost', { requestId: 'r', certificateNumber: 'ABC123' }, 'normal'],
      ['replace', 'lost', { requestId: 'r', certificateNumber: 'ABC123' }, 'invalid'],
      ['swap', 'normal', { requestId: 'r', presentedCardNo: 'C1' }, 'invalid'],
      ['logout', 'normal', { requestId: 'r', presentedCardNo: 'C1' }, 'cancelled'],
      ['logout', 'lost', { requestId: 'r', certificateNumber: 'ABC123' }, 'cancelled'],
    ] as const)(
      '%s of a %s card: once, in the transaction that writes the new status (%s)',
      async (action, status, dto, after) => {
        const { service, announced, transactions, afterAnnounce } = serviceWith(status, 0);
        await service.perform(5, 'C1', action, dto);
        expect(announced).toEqual([{ m: transactions.committed[0], cardNo: 'C1', status: after }]);
        expect(transactions.opened).toBe(1);
        expect(afterAnnounce).toHaveBeenCalledTimes(1);
      },
    );

    it.each([
      ['read', { requestId: 'r', presentedCardNo: 'C1' }],
      ['recharge', { requestId: 'r', presentedCardNo: 'C1', amount: 100 }],
      ['refundWithCard', { requestId: 'r', presentedCardNo: 'C1' }],
    ] as const)('not for %s (the status stays normal)', async (action, dto) => {
      const { service, announcer, afterAnnounce } = serviceWith('normal', 500);
      await service.perform(5, 'C1', action, dto);
      expect(announcer.announce).not.toHaveBeenCalled();
      expect(afterAnnounce).not.toHaveBeenCalled();
    });

    it('not for a replayed request, nor for a refused one', async () => {
      const { service, announcer } = serviceWith('normal', 0);
      await service.perform(5, 'C1', 'reportLoss', { requestId: 'r-1', certificateNumber: 'ABC123' });
      await service.perform(5, 'C1', 'reportLoss', { requestId: 'r-1', certificateNumber: 'ABC123' });
      await refusal(
        service.perform(5, 'C1', 'reportLoss', { requestId: 'r-2', certificateNumber: 'ABC123' }),
      );
      expect(announcer.announce).toHaveBeenCalledTimes(1);
    });

    it('fails the action when the announcement cannot be written (no status change without its event)', async () => {
      const { service, announcer, transactions, afterAnnounce } = serviceWith('normal', 0);
      announcer.announce.mockRejectedValueOnce(new Error('outbox unavailable'));
      await expect(
        service.perform(5, 'C1', 'reportLoss', { requestId: 'r-3', certificateNumber: 'ABC123' }),
      ).rejects.toThrow('outbox unavailable');
      expect(transactions.committed).toHaveLength(0);
      expect(afterAnnounce).not.toHaveBeenCalled();
    });
  });
});
