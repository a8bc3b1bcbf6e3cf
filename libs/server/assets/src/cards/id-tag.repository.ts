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

/**
 * The gateway's id-tag read model, kept through the functions the gateway publishes for it
 * (docs/decisions/0001-table-ownership.md), in the caller's transaction.
 */
@Injectable()
export class IdTagRepository {
  async upsert(
    m: EntityManager,
    idTag: string,
    status: IdTagStatus,
    expiryDate: string | null,
  ): Promise<void> {
    await m.query(`SELECT gateway_put_id_tag($1, $2, $3)`, [idTag, status, expiryDate]);
  }

  async remove(m: EntityManager, idTag: string): Promise<void> {
    await m.query(`SELECT gateway_remove_id_tag($1)`, [idTag]);
  }
}
