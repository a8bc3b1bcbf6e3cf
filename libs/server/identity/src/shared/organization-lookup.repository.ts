import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** Small reads of the organisation table that other parts of the area need. */
@Injectable()
export class OrganizationLookupRepository {
  constructor(private readonly db: DataSource) {}

  async pathOf(id: number): Promise<string | null> {
    const rows = (await this.db.query(`SELECT path FROM sys_organization WHERE id = $1`, [id])) as {
      path: string;
    }[];
    return rows[0]?.path ?? null;
  }

  async pathsOf(ids: number[]): Promise<Map<number, string>> {
    const rows = (await this.db.query(`SELECT id, path FROM sys_organization WHERE id = ANY($1::bigint[])`, [
      ids,
    ])) as { id: string; path: string }[];
    return new Map(rows.map((r) => [Number(r.id), r.path]));
  }
}
