import type { DataSource, EntityManager } from 'typeorm';
import type { PricePlan, PricePlanStage, StageType } from '../pricing/price-plan';
import { inScope, type BillingDataScope } from '../shared/data-scope';

export type PricePlanRow = {
  id: number;
  name: string;
  isDefault: boolean;
  updatedAt: Date;
  /** From when the plan's current (latest) stages apply; null: since always (its first version). */
  effectiveFrom: Date | null;
  stages: PricePlanStage[];
};

/** One entry of a station's plan history: the plan assigned from `from` until the next one. */
export type StationPlanRow = {
  planId: number;
  planName: string;
  from: Date;
  until: Date | null;
  assignedAt: Date;
  assignedBy: string | null;
};

/**
 * SQL: the version key of plan `plan` (a `price_plan` alias) in force at `at`: `v<id>` of its latest
 * version effective at or before `at`; a plan without versions (stages written straight into
 * price_plan_stage) is keyed by its `updated_at`, as before versions existed.
 */
export function planVersionAtSql(plan: string, at: string): string {
  return `COALESCE(
    (SELECT 'v' || v.id FROM price_plan_version v
      WHERE v.plan_id = ${plan}.id AND v.effective_from <= ${at} ORDER BY v.effective_from DESC LIMIT 1),
    to_json(${plan}.updated_at) #>> '{}')`;
}

const toStage = (s: Record<string, unknown>): PricePlanStage => ({
  stageType: (s['stageType'] ?? s['stage_type']) as StageType,
  startMinute: Number(s['startMinute'] ?? s['start_minute']),
  endMinute: Number(s['endMinute'] ?? s['end_minute']),
  electricityPrice: Number(s['electricityPrice'] ?? s['electricity_price']),
  serviceFee: Number(s['serviceFee'] ?? s['service_fee']),
});

/**
 * The stages of a plan version keyed as `planVersionAtSql` keys it. A `v<id>` version never changes
 * (cacheable for good); a plan's `updated_at` key is cacheable only when the stages read belong to it
 * (saving a plan bumps `updated_at` in the transaction that replaces its stages).
 */
export async function planVersionStages(
  m: EntityManager,
  ref: { id: number; version: string },
): Promise<{ plan: PricePlan; cacheable: boolean } | undefined> {
  const versionId = /^v(\d+)$/.exec(ref.version);
  if (versionId) {
    const [row] = await m.query('SELECT stages FROM price_plan_version WHERE id = $1 AND plan_id = $2', [
      Number(versionId[1]),
      ref.id,
    ]);
    if (!row) return undefined;
    return { plan: { stages: (row.stages as Record<string, unknown>[]).map(toStage) }, cacheable: true };
  }
  const rows = await m.query(
    `SELECT p.updated_at AS version, s.stage_type, s.start_minute, s.end_minute, s.electricity_price, s.service_fee
       FROM price_plan p JOIN price_plan_stage s ON s.plan_id = p.id
      WHERE p.id = $1 ORDER BY s.seq`,
    [ref.id],
  );
  if (!rows.length) return undefined;
  return {
    plan: { stages: rows.map(toStage) },
    cacheable: new Date(rows[0].version).getTime() === new Date(ref.version).getTime(),
  };
}

const PLAN_COLUMNS = `p.id, p.name, p.is_default, p.updated_at,
  (SELECT NULLIF(v.effective_from, '-infinity') FROM price_plan_version v
    WHERE v.plan_id = p.id ORDER BY v.effective_from DESC LIMIT 1) AS effective_from`;

/** The only file that touches the database for price plans. */
export class PricePlanRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async page(page: number, size: number): Promise<{ rows: PricePlanRow[]; total: number }> {
    const [{ total }] = await this.dataSource.query('SELECT count(*)::int AS total FROM price_plan');
    const plans = await this.dataSource.query(
      `SELECT ${PLAN_COLUMNS} FROM price_plan p ORDER BY p.id DESC LIMIT $1 OFFSET $2`,
      [size, (page - 1) * size],
    );
    return { rows: await this.withStages(this.dataSource.manager, plans), total };
  }

  async find(m: EntityManager, id: number): Promise<PricePlanRow | undefined> {
    const plans = await m.query(`SELECT ${PLAN_COLUMNS} FROM price_plan p WHERE p.id = $1`, [id]);
    return (await this.withStages(m, plans))[0];
  }

  private async withStages(m: EntityManager, plans: Record<string, unknown>[]): Promise<PricePlanRow[]> {
    if (!plans.length) return [];
    const stages = await m.query(
      `SELECT plan_id, stage_type, start_minute, end_minute, electricity_price, service_fee
         FROM price_plan_stage WHERE plan_id = ANY($1::int[]) ORDER BY plan_id, seq`,
      [plans.map((p) => p['id'])],
    );
    return plans.map((p) => ({
      id: Number(p['id']),
      name: String(p['name']),
      isDefault: Boolean(p['is_default']),
      updatedAt: new Date(p['updated_at'] as string),
      effectiveFrom: p['effective_from'] ? new Date(p['effective_from'] as string) : null,
      stages: stages.filter((s: Record<string, unknown>) => s['plan_id'] === p['id']).map(toStage),
    }));
  }

  async nameTaken(m: EntityManager, name: string, exceptId?: number): Promise<boolean> {
    const rows = await m.query('SELECT 1 FROM price_plan WHERE lower(name) = lower($1) AND id <> $2', [
      name,
      exceptId ?? 0,
    ]);
    return rows.length > 0;
  }

  /**
   * Creates or updates a plan. New stages (a new plan, or stages that differ from its latest ones)
   * become a version effective from `effectiveFrom`; versions that were to start at or after it are
   * replaced (the plan is these stages from then on). A plan's first version applies since always.
   * `price_plan_stage` keeps the latest stages (the form, the list and the exports show them).
   */
  async save(
    m: EntityManager,
    plan: { id?: number; name: string; isDefault: boolean; stages: PricePlanStage[]; effectiveFrom: Date },
  ): Promise<number> {
    if (plan.isDefault)
      await m.query('UPDATE price_plan SET is_default = false WHERE is_default AND id <> $1', [plan.id ?? 0]);
    let id = plan.id;
    let effectiveFrom: Date | '-infinity' = plan.effectiveFrom;
    if (id === undefined) {
      const [row] = await m.query('INSERT INTO price_plan (name, is_default) VALUES ($1, $2) RETURNING id', [
        plan.name,
        plan.isDefault,
      ]);
      id = Number(row.id);
      effectiveFrom = '-infinity';
    } else {
      // Locks the plan: concurrent edits of one plan add their versions one after the other.
      await m.query('UPDATE price_plan SET name = $2, is_default = $3, updated_at = now() WHERE id = $1', [
        id,
        plan.name,
        plan.isDefault,
      ]);
      const current = (await this.withStages(m, [{ id }]))[0]?.stages ?? [];
      if (JSON.stringify(current) === JSON.stringify(plan.stages)) return id;
      // A plan from before versions (or written without them): its stages so far are its first version.
      await m.query(
        `INSERT INTO price_plan_version (plan_id, effective_from, stages)
         SELECT $1, '-infinity', $2::jsonb
          WHERE jsonb_array_length($2::jsonb) > 0
            AND NOT EXISTS (SELECT 1 FROM price_plan_version WHERE plan_id = $1)`,
        [id, JSON.stringify(current)],
      );
      await m.query('DELETE FROM price_plan_version WHERE plan_id = $1 AND effective_from >= $2', [
        id,
        plan.effectiveFrom,
      ]);
      await m.query('DELETE FROM price_plan_stage WHERE plan_id = $1', [id]);
    }
    await m.query(
      'INSERT INTO price_plan_version (plan_id, effective_from, stages) VALUES ($1, $2, $3::jsonb)',
      [id, effectiveFrom, JSON.stringify(plan.stages)],
    );
    for (const [seq, s] of plan.stages.entries()) {
      await m.query(
        `INSERT INTO price_plan_stage (plan_id, seq, stage_type, start_minute, end_minute, electricity_price, service_fee)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, seq, s.stageType, s.startMinute, s.endMinute, s.electricityPrice, s.serviceFee],
      );
    }
    return id;
  }

  /** The versions of a plan, oldest first (`from` null: since always). */
  async versions(m: EntityManager, id: number): Promise<{ from: Date | null; createdAt: Date }[]> {
    const rows = await m.query(
      `SELECT NULLIF(effective_from, '-infinity') AS effective_from, created_at
         FROM price_plan_version WHERE plan_id = $1 ORDER BY effective_from`,
      [id],
    );
    return rows.map((r: Record<string, unknown>) => ({
      from: r['effective_from'] ? new Date(r['effective_from'] as string) : null,
      createdAt: new Date(r['created_at'] as string),
    }));
  }

  async usage(m: EntityManager, id: number): Promise<{ stations: number; orders: number }> {
    const [row] = await m.query(
      `SELECT (SELECT count(*)::int FROM station_price_plan WHERE plan_id = $1) AS stations,
              (SELECT count(*)::int FROM charging_order WHERE price_plan_id = $1) AS orders`,
      [id],
    );
    return { stations: row.stations, orders: row.orders };
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.query('DELETE FROM price_plan WHERE id = $1', [id]);
  }

  /** Whether the station exists and lies in the caller's data scope (`undefined`: no such station). */
  async stationVisible(
    m: EntityManager,
    stationId: number,
    scope: BillingDataScope,
  ): Promise<boolean | undefined> {
    const [row] = await m.query(
      `SELECT ${inScope('s.organization_id', 2)} AS visible FROM assets_station_v s WHERE s.id = $1`,
      [stationId, scope.pathPatterns],
    );
    return row ? Boolean(row.visible) : undefined;
  }

  async assign(
    m: EntityManager,
    stationId: number,
    planId: number,
    effectiveFrom: Date,
    assignedBy: string,
  ): Promise<void> {
    await m.query(
      `INSERT INTO station_price_plan (station_id, plan_id, effective_from, created_by) VALUES ($1, $2, $3, $4)
       ON CONFLICT (station_id, effective_from)
       DO UPDATE SET plan_id = EXCLUDED.plan_id, created_at = now(), created_by = EXCLUDED.created_by`,
      [stationId, planId, effectiveFrom, assignedBy],
    );
  }

  /** The plans of a station, newest first, each until the next one starts. */
  async stationHistory(m: EntityManager, stationId: number): Promise<StationPlanRow[]> {
    const rows = await m.query(
      `SELECT a.plan_id, p.name, a.effective_from, a.created_at, a.created_by,
              lead(a.effective_from) OVER (ORDER BY a.effective_from) AS until
         FROM station_price_plan a JOIN price_plan p ON p.id = a.plan_id
        WHERE a.station_id = $1
        ORDER BY a.effective_from DESC`,
      [stationId],
    );
    return rows.map((r: Record<string, unknown>) => ({
      planId: Number(r['plan_id']),
      planName: String(r['name']),
      from: new Date(r['effective_from'] as string),
      until: r['until'] ? new Date(r['until'] as string) : null,
      assignedAt: new Date(r['created_at'] as string),
      assignedBy: r['created_by'] === null ? null : String(r['created_by']),
    }));
  }
}
