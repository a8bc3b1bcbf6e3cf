import { intParam, pageParams } from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { formatBusinessTime } from './business-time';

/** `{page}/size/{size}` path parameters of every grid. */
export const pageParamsSchema = z.object(pageParams(1000));
export type PageParams = z.infer<typeof pageParamsSchema>;

/** A row id (bigint columns) in a path, query or body: decimal digits only, within what a bigint holds. */
export const entityId = intParam(1, Number.MAX_SAFE_INTEGER);

export const idParamSchema = z.object({ id: entityId });
export type IdParam = z.infer<typeof idParamSchema>;

/** WHERE clauses built from optional filters; values always travel as parameters. */
export class Filters {
  readonly clauses: string[] = [];
  readonly params: unknown[] = [];

  /** `column = value` when value is present. */
  eq(column: string, value: unknown): this {
    if (value === undefined || value === null || value === '') return this;
    this.params.push(value);
    this.clauses.push(`${column} = $${this.params.length}`);
    return this;
  }

  /** Case-insensitive substring match when value is present. */
  like(column: string, value: string | undefined): this {
    if (value === undefined || value.trim() === '') return this;
    this.params.push(`%${value.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    this.clauses.push(`${column} ILIKE $${this.params.length}`);
    return this;
  }

  get where(): string {
    return this.clauses.length === 0 ? '' : `WHERE ${this.clauses.join(' AND ')}`;
  }
}

/** One page of `select ... from` plus the total, ordered by `orderBy`. */
export async function pageOf<T>(
  db: DataSource,
  query: { select: string; from: string; filters: Filters; orderBy: string },
  { page, size }: PageParams,
): Promise<GridPage<T>> {
  const { filters } = query;
  const n = filters.params.length;
  const [list, count] = await Promise.all([
    db.query(
      `SELECT ${query.select} FROM ${query.from} ${filters.where} ORDER BY ${query.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...filters.params, size, (page - 1) * size],
    ) as Promise<T[]>,
    db.query(`SELECT count(*)::int AS total FROM ${query.from} ${filters.where}`, filters.params) as Promise<
      { total: number }[]
    >,
  ]);
  return { list, total: count[0].total };
}

/** Optional grid filter text from the query string. */
export const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const TIME_FIELDS = ['createTime', 'updateTime', 'sentTime', 'lastCheckedAt', 'sendTime'] as const;

/** Converts the Date columns of a row to `yyyy-MM-dd HH:mm:ss` in the business time zone. */
export function withBusinessTimes<T extends object>(row: T, timeZone: string): T {
  const out = { ...row } as Record<string, unknown>;
  for (const field of TIME_FIELDS) {
    const value = out[field];
    if (value instanceof Date) out[field] = formatBusinessTime(value, timeZone);
  }
  return out as T;
}

/** Booleans answered by delete routes must be JSON (`true`/`false`), not text, so `false` stays falsy. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
