import { Injectable } from '@nestjs/common';
import type { FavoriteView } from './favorite.dto';
import { DataSource } from 'typeorm';
import { iso } from '../shared/sql';

type Row = Record<string, unknown>;
const toView = (r: Row): FavoriteView => ({
  id: Number(r['id']),
  bId: r['b_id'] as string,
  bType: r['b_type'] as string,
  name: r['name'] as string,
  createdAt: iso(r['created_at'] as Date)!,
});

@Injectable()
export class FavoriteRepository {
  constructor(private readonly db: DataSource) {}

  async list(userId: number, bType?: string): Promise<FavoriteView[]> {
    const rows = (await this.db.query(
      `SELECT * FROM sys_favorite WHERE user_id = $1 AND ($2::text IS NULL OR b_type = $2) ORDER BY created_at DESC, id DESC`,
      [userId, bType ?? null],
    )) as Row[];
    return rows.map(toView);
  }

  async insert(userId: number, f: { bId: string; bType: string; name: string }): Promise<FavoriteView> {
    const rows = (await this.db.query(
      `INSERT INTO sys_favorite (user_id, b_id, b_type, name) VALUES ($1, $2, $3, $4) RETURNING *`,
      [userId, f.bId, f.bType, f.name],
    )) as Row[];
    return toView(rows[0]);
  }

  /** Deletes only the caller's own favourite; false when there was none. */
  async delete(userId: number, id: number): Promise<boolean> {
    // For DELETE ... RETURNING the postgres driver answers [rows, affectedCount].
    const [, affected] = (await this.db.query(
      `DELETE FROM sys_favorite WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId],
    )) as [unknown[], number];
    return affected > 0;
  }
}
