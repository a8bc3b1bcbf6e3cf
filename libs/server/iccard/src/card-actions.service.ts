import { createHash } from 'node:crypto';
import { DomainException } from '@voltdepot/server-core';
import {
  cardTransition,
  IC_CARD_MESSAGE_LABELS,
  type IcCardAction,
  type IcCardMessageCode,
} from '@voltdepot/shared-contracts';
import type {
  ActionQuery,
  CardActionDto,
  GroupTransferDto,
  GroupTransferParams,
  GroupTransferResult,
  IcCardActionResult,
  IcCardActionView,
  IcCardView,
} from './dto/iccard.dto';
import type { CardAnnouncer } from './card-announcer.writer';
import type { IcCardDataScopeProvider } from './iccard-data-scope';
import { LEDGER_CODES, type IcCardLedger, type IcCardPosting } from './iccard-ledger';
import { IcCardErrorCode, IcCardException } from './iccard.exception';
import type { CardRecord, IcCardRepository } from './iccard.repository';
import type { GridPage } from '@voltdepot/shared-contracts';

export type CardActionStore = Pick<
  IcCardRepository,
  | 'transaction'
  | 'findCard'
  | 'findCustomer'
  | 'actionByKey'
  | 'insertAction'
  | 'setCardStatus'
  | 'postedBalanceBefore'
  | 'actionPage'
>;

export type CardActionLedger = Pick<
  IcCardLedger,
  'account' | 'recharge' | 'refund' | 'allocate' | 'reclaim' | 'linkCard'
>;

/** A request's fingerprint: a request id used again with another request is a conflict. */
const requestHash = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex');

const MONEY_ACTIONS: ReadonlySet<IcCardAction> = new Set(['recharge', 'refundWithCard', 'refundWithoutCard']);

/** The ledger's refusals in the area's words (§5). */
const LEDGER_REFUSALS: Readonly<Record<string, IcCardMessageCode>> = {
  [LEDGER_CODES.insufficientBalance]: 'insufficientBalance',
  [LEDGER_CODES.refundNotAllowed]: 'refundBalanceNotPositive',
  [LEDGER_CODES.accountFrozen]: 'cardAbnormal',
};

function refused(code: IcCardMessageCode): IcCardException {
  return IcCardException.refused(code, IC_CARD_MESSAGE_LABELS[code]['en-US']);
}

/** A ledger refusal as the area's refusal; anything else as it is. */
async function inLedger<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainException) {
      const code = LEDGER_REFUSALS[error.code];
      if (code) throw refused(code);
      if (error.code === LEDGER_CODES.idempotencyConflict) throw conflict();
    }
    throw error;
  }
}

const conflict = () =>
  new IcCardException(
    IcCardErrorCode.IdempotencyConflict,
    'this request id was used before for another request',
    [{ field: 'requestId', message: 'already used for another request' }],
  );

/**
 * The operator's card actions (§4) and a group's allocations. Each action, exactly once per request id:
 * under the card's row lock, the state machine (`cardTransition`) decides; the ledger posts the money
 * (its idempotency key is the request's); the action is recorded and the card's status set in the
 * transaction holding the lock. The ledger commits its posting in its own transaction: if the record
 * does not commit after it, the retry finds the posting (the ledger replays it) and records it then.
 * A status change is announced (`iccard.card.changed`, through the outbox) in that same transaction, so
 * the pile learns it (docs/ic-cards.md "The card at the pile"); `afterAnnounce` runs after its commit
 * (the app nudges its outbox relay).
 */
export class CardActionsService {
  constructor(
    private readonly repository: CardActionStore,
    private readonly ledger: CardActionLedger,
    private readonly scopes: IcCardDataScopeProvider,
    private readonly announcer: Pick<CardAnnouncer, 'announce'>,
    private readonly afterAnnounce: () => void = () => undefined,
  ) {}

  async actionPage(
    userId: number,
    q: ActionQuery,
    page: number,
    size: number,
  ): Promise<GridPage<IcCardActionView>> {
    return this.repository.actionPage(await this.scopes.scopeOf(userId), q, page, size);
  }

  async perform(
    operatorId: number,
    cardNo: string,
    action: IcCardAction,
    dto: CardActionDto,
  ): Promise<IcCardActionResult> {
    const scope = await this.scopes.scopeOf(operatorId);
    const key = `iccard:card:${dto.requestId}`;
    const hash = requestHash({
      cardNo,
      action,
      presentedCardNo: dto.presentedCardNo ?? null,
      certificateNumber: dto.certificateNumber ?? null,
      amount: dto.amount ?? null,
    });
    let announced = false;
    const result = await this.repository.transaction(async (m) => {
      const card = await this.repository.findCard(m, cardNo, scope, true);
      if (!card) throw new IcCardException(IcCardErrorCode.CardNotFound, `card ${cardNo} not found`);
      const done = await this.repository.actionByKey(m, key);
      if (done) {
        if (done.requestHash !== hash || done.cardNo !== cardNo) throw conflict();
        const { requestHash: _hash, ...record } = done;
        return { record, card: viewOf(card), replayed: true };
      }

      // A retry whose posting committed before its record did: the rules are judged on the balance the
      // posting saw (the ledger replays it below).
      const balanceFen = MONEY_ACTIONS.has(action)
        ? ((await this.repository.postedBalanceBefore(m, key, card.accountId)) ??
          (await this.ledger.account(card.accountId)).balanceFen)
        : (await this.ledger.account(card.accountId)).balanceFen;
      const transition = cardTransition(card.status, action, {
        chip: card.chip,
        cardNo: card.cardNo,
        balanceFen,
        presentedCardNo: dto.presentedCardNo,
        registeredIdNumber: card.certificateNumber,
        presentedIdNumber: dto.certificateNumber ?? undefined,
        rechargeFen: action === 'recharge' ? dto.amount : undefined,
        refundFen: action === 'recharge' ? undefined : dto.amount,
      });
      if (!transition.ok) throw refused(transition.code);

      const meta = { idempotencyKey: key, operatorId, reference: `card:${cardNo}`, memo: action };
      let posted: IcCardPosting | undefined;
      if (action === 'recharge')
        posted = await inLedger(() =>
          this.ledger.recharge({ ...meta, accountId: card.accountId, amountFen: dto.amount! }),
        );
      else if (action === 'refundWithCard' || action === 'refundWithoutCard')
        posted = await inLedger(() =>
          this.ledger.refund({ ...meta, accountId: card.accountId, amountFen: dto.amount }),
        );
      if (action === 'makeCpu' || action === 'makeM1')
        await this.ledger.linkCard(card.cardNo, card.accountId);

      const entry = posted?.entries.find((e) => e.accountId === card.accountId);
      const amountFen = action === 'recharge' ? dto.amount! : posted ? (entry?.amountFen ?? null) : null;
      const record = await this.repository.insertAction(m, {
        cardId: card.id,
        action,
        statusBefore: card.status,
        statusAfter: transition.status,
        notes: transition.notes,
        amountFen,
        ledgerTransactionId: posted?.id ?? null,
        operatorId,
        idempotencyKey: key,
        requestHash: hash,
      });
      if (transition.status !== card.status) {
        await this.repository.setCardStatus(m, card.id, transition.status);
        // Under the card's row lock, with the status write: the pile learns what commits.
        await this.announcer.announce(m, card.cardNo);
        announced = true;
      }
      const after = await this.repository.findCard(m, cardNo, scope);
      return { record, card: viewOf(after!), replayed: false };
    });
    if (announced) this.afterAnnounce();
    return result;
  }

  /** Balance from a group to one of its users' sub-accounts, or back; exactly once per request id. */
  async transfer(
    operatorId: number,
    p: GroupTransferParams,
    dto: GroupTransferDto,
  ): Promise<GroupTransferResult> {
    const scope = await this.scopes.scopeOf(operatorId);
    const [group, member] = await this.repository.transaction(async (m) => [
      await this.repository.findCustomer(m, p.id, scope),
      await this.repository.findCustomer(m, dto.memberId, scope),
    ]);
    if (group?.clientType !== 2 || group.accountId === null)
      throw new IcCardException(IcCardErrorCode.CustomerNotFound, `group ${p.id} not found`);
    if (!member || member.groupId !== group.id || member.accountId === null)
      throw new IcCardException(
        IcCardErrorCode.NotGroupMember,
        `customer ${dto.memberId} is not a user of group ${p.id}`,
        [{ field: 'memberId', message: 'not a user of this group' }],
      );
    const meta = {
      idempotencyKey: `iccard:group:${dto.requestId}`,
      operatorId,
      reference: `group:${group.id}`,
      groupId: group.accountId,
      subId: member.accountId,
      amountFen: dto.amount,
    };
    const posted = await inLedger(() =>
      p.direction === 'allocate' ? this.ledger.allocate(meta) : this.ledger.reclaim(meta),
    );
    const [groupAccount, memberAccount] = await Promise.all([
      this.ledger.account(group.accountId),
      this.ledger.account(member.accountId),
    ]);
    return {
      groupBalanceFen: groupAccount.balanceFen,
      memberBalanceFen: memberAccount.balanceFen,
      replayed: posted.replayed,
    };
  }
}

function viewOf({ certificateNumber: _certificate, ...view }: CardRecord): IcCardView {
  return view;
}
