import { Injectable } from '@nestjs/common';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { LoginLogView, OperationLogView } from './log.dto';
import { DataSource } from 'typeorm';
import type { DataScope } from '../shared/data-scope';
import { iso } from '../shared/sql';

export type OperationLogEntry = Omit<OperationLogView, 'id' | 'createdAt'>;
export type LoginLogEntry = Omit<LoginLogView, 'id' | 'createdAt'>;

export type LogFilter = {
  username?: string;
  success?: boolean;
  from?: Date;
  to?: Date;
  method?: string;
  path?: string;
};

/** Operation and login logs: append-only tables. */
@Injectable()
export class LogRepository {
  constructor(private readonly db: DataSource) {}

  async addOperation(entry: OperationLogEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO sys_operation_log
         (user_id, username, method, path, route, status, success, ip, user_agent, duration_ms, correlation_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [
        entry.userId,
        entry.username,
        entry.method,
        entry.path.slice(0, 2000),
        entry.route,
        entry.status,
        entry.success,
        entry.ip,
        entry.userAgent?.slice(0, 500) ?? null,
        entry.durationMs,
        entry.correlationId,
      ],
    );
  }

  async addLogin(entry: LoginLogEntry): Promise<void> {
    await this.db.query(
      `INSERT INTO sys_login_log (user_id, username, success, reason, ip, user_agent)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        entry.userId,
        entry.username.slice(0, 200),
        entry.success,
        entry.reason,
        entry.ip,
        entry.userAgent?.slice(0, 500) ?? null,
      ],
    );
  }

  /** Entries by users inside the scope; anonymous entries only for callers who see a root organisation. */
  async pageOperations(
    scope: DataScope,
    filter: LogFilter,
    page: number,
    size: number,
  ): Promise<GridPage<OperationLogView>> {
    const where: string[] = [scopeClause(scope, 'l')];
    const params: unknown[] = [scope.pathPatterns];
    addCommonFilters(filter, where, params, 'l');
    if (filter.method !== undefined) {
      params.push(filter.method.toUpperCase());
      where.push(`l.method = $${params.length}`);
    }
    if (filter.path !== undefined) {
      params.push(`%${escapeLike(filter.path)}%`);
      where.push(`l.path ILIKE $${params.length}`);
    }
    return this.page<OperationLogView>('sys_operation_log', where, params, page, size, (r) => ({
      id: Number(r['id']),
      userId: r['user_id'] === null ? null : Number(r['user_id']),
      username: r['username'] as string | null,
      method: r['method'] as string,
      path: r['path'] as string,
      route: r['route'] as string | null,
      status: Number(r['status']),
      success: r['success'] as boolean,
      ip: r['ip'] as string | null,
      userAgent: r['user_agent'] as string | null,
      durationMs: Number(r['duration_ms']),
      correlationId: r['correlation_id'] as string | null,
      createdAt: iso(r['created_at'] as Date)!,
    }));
  }

  async pageLogins(
    scope: DataScope,
    filter: LogFilter,
    page: number,
    size: number,
  ): Promise<GridPage<LoginLogView>> {
    const where: string[] = [scopeClause(scope, 'l')];
    const params: unknown[] = [scope.pathPatterns];
    addCommonFilters(filter, where, params, 'l');
    return this.page<LoginLogView>('sys_login_log', where, params, page, size, (r) => ({
      id: Number(r['id']),
      userId: r['user_id'] === null ? null : Number(r['user_id']),
      username: r['username'] as string,
      success: r['success'] as boolean,
      reason: r['reason'] as string | null,
      ip: r['ip'] as string | null,
      userAgent: r['user_agent'] as string | null,
      createdAt: iso(r['created_at'] as Date)!,
    }));
  }

  private async page<T>(
    table: string,
    where: string[],
    params: unknown[],
    page: number,
    size: number,
    map: (row: Record<string, unknown>) => T,
  ): Promise<GridPage<T>> {
    const from = `FROM ${table} l LEFT JOIN sys_user u ON u.id = l.user_id LEFT JOIN sys_organization o ON o.id = u.organization_id
                  WHERE ${where.join(' AND ')}`;
    const [{ total }] = (await this.db.query(`SELECT count(*)::int AS total ${from}`, params)) as {
      total: number;
    }[];
    const rows = (await this.db.query(
      `SELECT l.* ${from} ORDER BY l.created_at DESC, l.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, (page - 1) * size],
    )) as Record<string, unknown>[];
    return { list: rows.map(map), total };
  }
}

/** $1 holds the scope's path patterns. A root pattern is `/<id>/%` with a single id. */
function scopeClause(_scope: DataScope, alias: string): string {
  return `((o.path LIKE ANY($1::text[])) OR (${alias}.user_id IS NULL OR u.id IS NULL) AND EXISTS (
            SELECT 1 FROM unnest($1::text[]) p WHERE p ~ '^/[0-9]+/%$'))`;
}

function addCommonFilters(filter: LogFilter, where: string[], params: unknown[], alias: string): void {
  if (filter.username !== undefined) {
    params.push(`%${escapeLike(filter.username)}%`);
    where.push(`${alias}.username ILIKE $${params.length}`);
  }
  if (filter.success !== undefined) {
    params.push(filter.success);
    where.push(`${alias}.success = $${params.length}`);
  }
  if (filter.from !== undefined) {
    params.push(filter.from);
    where.push(`${alias}.created_at >= $${params.length}`);
  }
  if (filter.to !== undefined) {
    params.push(filter.to);
    where.push(`${alias}.created_at <= $${params.length}`);
  }
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
