import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type {
  AssetDefinition,
  AssetReference,
  AssetView,
  ColumnKind,
  ReferencedRow,
} from './asset-definition';
import type { AssetsDataScope } from './data-scope';

type Row = Record<string, unknown>;

/** Visible rows of a scoped table: its organisation lies in one of the caller's subtrees. */
export function scopeCondition(alias: string, param: number): string {
  return `${alias}.organization_id IN (SELECT o.id FROM identity_organization_v o WHERE o.path LIKE ANY($${param}::text[]))`;
}

function selectExpression(sql: string, kind: ColumnKind): string {
  switch (kind) {
    case 'time':
      return `to_char(${sql}, 'HH24:MI')`;
    case 'date':
      return `to_char(${sql}, 'YYYY-MM-DD')`;
    case 'numeric':
      return `(${sql})::float8`;
    default:
      return sql;
  }
}

function fromDb(value: unknown, kind: ColumnKind): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'int':
    case 'numeric':
      return Number(value);
    case 'intArray':
      return (value as unknown[]).map(Number);
    case 'timestamptz':
      return (value instanceof Date ? value : new Date(String(value))).toISOString();
    default:
      return value;
  }
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The only code that touches the database for the generic basic-data grids (SQL from definitions only). */
@Injectable()
export class AssetRepository {
  constructor(private readonly db: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }

  private selectList(def: AssetDefinition): string {
    const parts = [
      't.id',
      ...(def.scoped ? ['t.organization_id'] : []),
      ...def.columns.map((c) => `${selectExpression(`t.${c.column}`, c.kind)} AS "${c.field}"`),
      ...(def.computed ?? []).map((c) => `${selectExpression(c.sql, c.kind)} AS "${c.field}"`),
      't.created_at',
      't.updated_at',
    ];
    return parts.join(', ');
  }

  toView(def: AssetDefinition, row: Row): AssetView {
    const view: AssetView = { id: Number(row['id']) };
    if (def.scoped) view['organizationId'] = Number(row['organization_id']);
    for (const c of [...def.columns, ...(def.computed ?? [])]) view[c.field] = fromDb(row[c.field], c.kind);
    view['createdAt'] = fromDb(row['created_at'], 'timestamptz');
    view['updatedAt'] = fromDb(row['updated_at'], 'timestamptz');
    return view;
  }

  private where(
    def: AssetDefinition,
    scope: AssetsDataScope,
    filter: Record<string, unknown>,
  ): { sql: string; params: unknown[] } {
    const where: string[] = [];
    const params: unknown[] = [];
    if (def.scoped) {
      params.push(scope.pathPatterns);
      where.push(scopeCondition('t', params.length));
    }
    for (const f of def.filters) {
      const value = filter[f.field];
      if (value === undefined) continue;
      params.push(f.kind === 'like' ? `%${escapeLike(String(value))}%` : value);
      where.push(f.kind === 'like' ? `${f.sql} ILIKE $${params.length}` : `${f.sql} = $${params.length}`);
    }
    return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
  }

  async page(
    def: AssetDefinition,
    scope: AssetsDataScope,
    filter: Record<string, unknown>,
    page: number,
    size: number,
  ): Promise<{ list: AssetView[]; total: number }> {
    const { sql, params } = this.where(def, scope, filter);
    const [{ total }] = (await this.db.query(
      `SELECT count(*)::int AS total FROM ${def.table} t ${sql}`,
      params,
    )) as { total: number }[];
    const rows = (await this.db.query(
      `SELECT ${this.selectList(def)} FROM ${def.table} t ${sql}
        ORDER BY ${def.orderBy ?? 't.id DESC'} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, size, (page - 1) * size],
    )) as Row[];
    return { list: rows.map((r) => this.toView(def, r)), total };
  }

  /** Every visible row matching the filter, in batches (exports). */
  async *batches(
    def: AssetDefinition,
    scope: AssetsDataScope,
    filter: Record<string, unknown>,
    batchSize = 1000,
  ): AsyncGenerator<AssetView[]> {
    const { sql, params } = this.where(def, scope, filter);
    let afterId = 2_147_483_647;
    for (;;) {
      const rows = (await this.db.query(
        `SELECT ${this.selectList(def)} FROM ${def.table} t ${sql ? `${sql} AND` : 'WHERE'} t.id < $${params.length + 1}
          ORDER BY t.id DESC LIMIT $${params.length + 2}`,
        [...params, afterId, batchSize],
      )) as Row[];
      if (rows.length === 0) return;
      yield rows.map((r) => this.toView(def, r));
      afterId = Number(rows[rows.length - 1]['id']);
    }
  }

  async find(
    def: AssetDefinition,
    id: number,
    scope: AssetsDataScope,
    m?: EntityManager,
  ): Promise<AssetView | null> {
    const params: unknown[] = [id];
    let condition = 't.id = $1';
    if (def.scoped) {
      params.push(scope.pathPatterns);
      condition += ` AND ${scopeCondition('t', 2)}`;
    }
    const rows = (await (m ?? this.db).query(
      `SELECT ${this.selectList(def)} FROM ${def.table} t WHERE ${condition}`,
      params,
    )) as Row[];
    return rows.length ? this.toView(def, rows[0]) : null;
  }

  /** Visible ids among `ids` (batch actions). */
  async visibleIds(
    m: EntityManager,
    def: AssetDefinition,
    ids: number[],
    scope: AssetsDataScope,
  ): Promise<Set<number>> {
    const rows = (await m.query(
      `SELECT t.id FROM ${def.table} t WHERE t.id = ANY($1::int[])${def.scoped ? ` AND ${scopeCondition('t', 2)}` : ''}`,
      def.scoped ? [ids, scope.pathPatterns] : [ids],
    )) as { id: number }[];
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** The referenced row if it exists and is visible, with whether `must` holds. */
  async reference(
    ref: AssetReference,
    id: number,
    scope: AssetsDataScope,
  ): Promise<{ row: ReferencedRow; ok: boolean } | null> {
    const params: unknown[] = [id];
    let condition = 'r.id = $1';
    if (ref.scoped) {
      params.push(scope.pathPatterns);
      condition += ` AND ${scopeCondition('r', 2)}`;
    }
    const rows = (await this.db.query(
      `SELECT r.*, ${ref.select ? `${ref.select}, ` : ''}${ref.must ? `(${ref.must.sql})` : 'true'} AS must_hold FROM ${ref.table} r WHERE ${condition}`,
      params,
    )) as Row[];
    if (!rows.length) return null;
    const { must_hold, ...row } = rows[0];
    return { row, ok: must_hold === true };
  }

  /**
   * Rows an import may refer to (visible ones when scoped): id, the identifying columns and the parent's
   * id as `parent_id`. Table and column names come from the sheet specs, never from a request.
   */
  async lookupRows(
    ref: { table: string; by: string[]; scoped: boolean; parent?: { column: string }; where?: string },
    scope: AssetsDataScope,
  ): Promise<Row[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (ref.scoped) {
      params.push(scope.pathPatterns);
      where.push(scopeCondition('t', 1));
    }
    if (ref.where) where.push(`(${ref.where})`);
    const columns = [
      't.id',
      ...ref.by.map((c) => `t.${c}`),
      ref.parent ? `t.${ref.parent.column} AS parent_id` : 'NULL AS parent_id',
    ];
    return (await this.db.query(
      `SELECT ${columns.join(', ')} FROM ${ref.table} t ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`,
      params,
    )) as Row[];
  }

  /** 'missing', 'outside' the scope, or 'visible'. */
  async organizationAccess(
    organizationId: number,
    scope: AssetsDataScope,
  ): Promise<'missing' | 'outside' | 'visible'> {
    const rows = (await this.db.query(
      `SELECT o.path LIKE ANY($2::text[]) AS visible FROM identity_organization_v o WHERE o.id = $1`,
      [organizationId, scope.pathPatterns],
    )) as { visible: boolean }[];
    if (!rows.length) return 'missing';
    return rows[0].visible ? 'visible' : 'outside';
  }

  async insert(
    m: EntityManager,
    def: AssetDefinition,
    values: Record<string, unknown>,
    organizationId: number | undefined,
  ): Promise<number> {
    const columns = Object.keys(values);
    const params = Object.values(values);
    if (def.scoped) {
      columns.push('organization_id');
      params.push(organizationId);
    }
    const rows = (await m.query(
      `INSERT INTO ${def.table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING id`,
      params,
    )) as { id: number }[];
    return Number(rows[0].id);
  }

  async update(
    m: EntityManager,
    def: AssetDefinition,
    id: number,
    values: Record<string, unknown>,
    organizationId: number | undefined,
  ): Promise<void> {
    const columns = Object.keys(values);
    const params: unknown[] = [id, ...Object.values(values)];
    const sets = columns.map((c, i) => `${c} = $${i + 2}`);
    if (def.scoped && organizationId !== undefined) {
      params.push(organizationId);
      sets.push(`organization_id = $${params.length}`);
    }
    sets.push('updated_at = now()');
    await m.query(`UPDATE ${def.table} SET ${sets.join(', ')} WHERE id = $1`, params);
  }

  async delete(m: EntityManager, def: AssetDefinition, id: number): Promise<void> {
    await m.query(`DELETE FROM ${def.table} WHERE id = $1`, [id]);
  }
}
