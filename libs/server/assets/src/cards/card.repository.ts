import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** Status changes of charging cards by their actions (the only code here writing charging_card directly). */
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
}
