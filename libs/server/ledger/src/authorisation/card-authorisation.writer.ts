import type { EntityManager } from 'typeorm';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import { CardAuthorisationChanged, type CardAuthorisationChangedV1 } from '@voltdepot/shared-events';
import type { LockedAccount, PlannedEntry } from '../ledger-postings';
import {
  authorisationChanges,
  authorisationOf,
  sameAuthorisation,
  type CardAuthorisation,
} from './card-authorisation';

type Row = Record<string, unknown>;

/**
 * Announces, in the caller's database transaction, every change of whether a prepaid card may charge
 * (`ledger.card-authorisation.changed` through the outbox): the ledger calls it inside a posting, a
 * freeze or unfreeze, and a card's link or unlink, so the change and its event commit together.
 *
 * Ordering: each event takes `ledger_card_authorisation_seq` while it holds the card's row (FOR SHARE
 * here, exclusively in link and unlink) and its account's row (locked by the caller), so per card the
 * sequence rises in commit order; the gateway keeps the highest. A card moved to another account while
 * a posting on the old one waits for its row is skipped by that posting (the row no longer matches).
 */
export class CardAuthorisationWriter {
  constructor(
    readonly minimumBalanceFen: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** After a posting's entries and balances are written; returns how many events it added. */
  async afterPosting(
    m: EntityManager,
    locked: ReadonlyMap<number, LockedAccount>,
    entries: readonly PlannedEntry[],
  ): Promise<number> {
    const changes = this.changesOf(locked, entries);
    return changes.size ? this.announceAccounts(m, changes) : 0;
  }

  /** The accounts whose cards' authorisation a posting changes (pure: no query when there is none). */
  changesOf(
    locked: ReadonlyMap<number, LockedAccount>,
    entries: readonly PlannedEntry[],
  ): Map<number, CardAuthorisation> {
    return authorisationChanges(locked, entries, this.minimumBalanceFen);
  }

  /**
   * Freeze or unfreeze an account: the row is locked, updated, and its cards announced when their
   * authorisation changes. False when there is no such (non-arrears) account.
   */
  async setFrozen(m: EntityManager, accountId: number, frozen: boolean): Promise<boolean> {
    const [account] = await this.lockedState(m, accountId, 'UPDATE');
    if (!account) return false;
    await m.query(`UPDATE ledger_account SET frozen = $2, updated_at = now() WHERE id = $1`, [
      accountId,
      frozen,
    ]);
    const before = authorisationOf(account, this.minimumBalanceFen);
    const after = authorisationOf({ ...account, frozen }, this.minimumBalanceFen);
    if (!sameAuthorisation(before, after)) await this.announceAccounts(m, new Map([[accountId, after]]));
    return true;
  }

  /** Links (or moves) a card to an account and announces the card's authorisation on it. */
  async linkCard(m: EntityManager, idTag: string, accountId: number): Promise<void> {
    // The account first, shared (a posting on it waits, or is waited for): the state read is its latest.
    const [account] = await this.lockedState(m, accountId, 'SHARE');
    if (!account) throw new Error(`ledger account ${accountId} not found`);
    const [row] = await m.query(
      `INSERT INTO ledger_card_account (id_tag, account_id) VALUES ($1, $2)
       ON CONFLICT (id_tag) DO UPDATE SET account_id = EXCLUDED.account_id, linked_at = now()
       RETURNING nextval('ledger_card_authorisation_seq') AS sequence`,
      [idTag, accountId],
    );
    await this.announce(m, [
      {
        idTag,
        accountId,
        ...authorisationOf(account, this.minimumBalanceFen),
        sequence: Number(row.sequence),
      },
    ]);
  }

  /** Unlinks a card: it no longer draws on an account, so the ledger no longer blocks it. */
  async unlinkCard(m: EntityManager, idTag: string): Promise<void> {
    const rows: Row[] = await m.query(
      `WITH unlinked AS (DELETE FROM ledger_card_account WHERE id_tag = $1 RETURNING id_tag)
       SELECT nextval('ledger_card_authorisation_seq') AS sequence FROM unlinked`,
      [idTag],
    );
    if (rows.length)
      await this.announce(m, [{ idTag, blocked: false, sequence: Number(rows[0]['sequence']) }]);
  }

  /** An account's state under a lock of its row and its arrears account's (in id order, as postings lock). */
  private async lockedState(m: EntityManager, accountId: number, mode: 'UPDATE' | 'SHARE') {
    const rows: Row[] = await m.query(
      `SELECT id, kind, balance_fen, frozen FROM ledger_account
        WHERE (id = $1 AND kind <> 'arrears') OR (kind = 'arrears' AND parent_id = $1)
        ORDER BY id FOR ${mode}`,
      [accountId],
    );
    const account = rows.find((r) => Number(r['id']) === accountId);
    if (!account) return [];
    const arrears = rows.find((r) => r['kind'] === 'arrears');
    return [
      {
        frozen: Boolean(account['frozen']),
        balanceFen: Number(account['balance_fen']),
        arrearsFen: arrears ? -Number(arrears['balance_fen']) : 0,
      },
    ];
  }

  private async announceAccounts(m: EntityManager, changes: Map<number, CardAuthorisation>): Promise<number> {
    const cards: Row[] = await m.query(
      `SELECT c.id_tag, c.account_id, nextval('ledger_card_authorisation_seq') AS sequence
         FROM (SELECT id_tag, account_id FROM ledger_card_account
                WHERE account_id = ANY($1::bigint[]) ORDER BY id_tag FOR SHARE) c`,
      [[...changes.keys()]],
    );
    await this.announce(
      m,
      cards.map((c) => ({
        idTag: String(c['id_tag']),
        accountId: Number(c['account_id']),
        ...changes.get(Number(c['account_id']))!,
        sequence: Number(c['sequence']),
      })),
    );
    return cards.length;
  }

  private async announce(
    m: EntityManager,
    cards: (CardAuthorisation & { idTag: string; accountId?: number; sequence: number })[],
  ): Promise<void> {
    const now = this.now();
    const changedAt = now.toISOString();
    await addToOutbox(
      m,
      cards.map(({ idTag, accountId, blocked, reason, sequence }) => {
        const payload: CardAuthorisationChangedV1 = { idTag, blocked, sequence, changedAt };
        if (accountId !== undefined) payload.accountId = accountId;
        if (reason) payload.reason = reason;
        return createEnvelope(CardAuthorisationChanged, idTag, payload, { occurredAt: now });
      }),
    );
  }
}
