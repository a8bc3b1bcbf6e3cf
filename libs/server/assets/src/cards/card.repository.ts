import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type chargingCardOf, supersedes } from './ic-card-states';

/**
 * Status changes of charging cards by their actions, and the cards kept from IC cards (the only code
 * here writing charging_card directly).
 */
@Injectable()
export class CardRepository {
  /**
   * Moves the card from `from` to `to` (and to a new physical number), only if it is still in `from`:
   * false when another request changed it first.
   */
  async transition(
    m: EntityManager,
    id: number,
    from: string,
    to: string,
    physicalNumber: string | undefined,
  ): Promise<boolean> {
    const rows = (await m.query(
      `UPDATE charging_card SET status = $3, physical_number = coalesce($4, physical_number), updated_at = now()
        WHERE id = $1 AND status = $2 RETURNING id`,
      [id, from, to, physicalNumber ?? null],
    )) as [unknown[], number] | unknown[];
    // node-postgres through TypeORM answers an UPDATE ... RETURNING with [rows, count].
    const returned = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : (rows as unknown[]);
    return returned.length > 0;
  }

  /**
   * Creates or updates the charging card with an IC card's number (`chargingCardOf`), only over an older
   * IC state (`supersedes`): 'stale' when the card already holds this or a newer one, 'conflict' when a
   * new card's self number belongs to another card. The card's row is locked for the caller's
   * transaction, so the id tag it writes next is this state's.
   */
  async syncFromIcCard(
    m: EntityManager,
    card: ReturnType<typeof chargingCardOf>,
  ): Promise<
    | { outcome: 'created' | 'updated'; expiryDate: string | null }
    | { outcome: 'stale' | 'conflict'; expiryDate?: undefined }
  > {
    const [existing] = (await m.query(
      `SELECT id, ic_card_sequence, expiry_date FROM charging_card WHERE physical_number = $1 FOR UPDATE`,
      [card.physicalNumber],
    )) as { id: number; ic_card_sequence: string | null; expiry_date: Date | null }[];
    if (existing) {
      const stored = existing.ic_card_sequence === null ? null : Number(existing.ic_card_sequence);
      if (!supersedes({ sequence: card.icCardSequence }, stored)) return { outcome: 'stale' };
      await m.query(
        `UPDATE charging_card SET type = $2, status = $3, cardholder = $4, ic_card_sequence = $5,
                organization_id = $6, updated_at = now()
          WHERE id = $1`,
        [existing.id, card.type, card.status, card.cardholder, card.icCardSequence, card.organizationId],
      );
      return {
        outcome: 'updated',
        expiryDate: existing.expiry_date ? new Date(existing.expiry_date).toISOString() : null,
      };
    }
    const inserted = (await m.query(
      `INSERT INTO charging_card (organization_id, physical_number, type, self_number, cardholder, status, ic_card_sequence)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING id`,
      [
        card.organizationId,
        card.physicalNumber,
        card.type,
        card.selfNumber,
        card.cardholder,
        card.status,
        card.icCardSequence,
      ],
    )) as unknown[];
    return inserted.length ? { outcome: 'created', expiryDate: null } : { outcome: 'conflict' };
  }
}
