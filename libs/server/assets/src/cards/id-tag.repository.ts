import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export type IdTagStatus = 'Accepted' | 'Blocked' | 'Invalid';

/** Card status (business-areas §4) -> OCPP idTagInfo status the gateway answers Authorize with. */
export function idTagStatusOf(cardStatus: string): IdTagStatus {
  switch (cardStatus) {
    case 'normal':
    case 'occupied':
      return 'Accepted';
    case 'lost':
    case 'cancelled':
      return 'Blocked';
    default:
      return 'Invalid';
  }
}

/** The gateway's `id_tag` read model, written in the caller's transaction (the only code touching it here). */
@Injectable()
export class IdTagRepository {
  async upsert(
    m: EntityManager,
    idTag: string,
    status: IdTagStatus,
    expiryDate: string | null,
  ): Promise<void> {
    await m.query(
      `INSERT INTO id_tag (id_tag, status, expiry_date) VALUES ($1, $2, $3)
       ON CONFLICT (id_tag) DO UPDATE SET status = EXCLUDED.status, expiry_date = EXCLUDED.expiry_date, updated_at = now()`,
      [idTag, status, expiryDate],
    );
  }

  async remove(m: EntityManager, idTag: string): Promise<void> {
    await m.query(`DELETE FROM id_tag WHERE id_tag = $1`, [idTag]);
  }
}
