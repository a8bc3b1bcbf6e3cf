import type { DataSource, EntityManager } from 'typeorm';
import type { PricePlanStage } from '../pricing/price-plan';

export type PricePlanRow = {
  id: number;
  name: string;
  isDefault: boolean;
  updatedAt: Date;
  stages: PricePlanStage[];
};

/** The only file that touches the database for price plans. */
export class PricePlanRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async page(page: number, size: number): Promise<{ rows: PricePlanRow[]; total: number }> {
    const [{ total }] = await this.dataSource.query('SELECT count(*)::int AS total FROM price_plan');
    const plans = await this.dataSource.query(
      'SELECT id, name, is_default, updated_at FROM price_plan ORDER BY id DESC LIMIT $1 OFFSET $2',
      [size, (page - 1) * size],
    );
    return { rows: await this.withStages(this.dataSource.manager, plans), total };
  }

  async find(m: EntityManager, id: number): Promise<PricePlanRow | undefined> {
    const plans = await m.query('SELECT id, name, is_default, updated_at FROM price_plan WHERE id = $1', [
      id,
    ]);
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
      stages: stages
        .filter((s: Record<string, unknown>) => s['plan_id'] === p['id'])
        .map((s: Record<string, unknown>) => ({
          stageType: s['stage_type'],
          startMinute: Number(s['start_minute']),
          endMinute: Number(s['end_minute']),
          electricityPrice: Number(s['electricity_price']),
          serviceFee: Number(s['service_fee']),
        })),
    }));
  }

  async nameTaken(m: EntityManager, name: string, exceptId?: number): Promise<boolean> {
    const rows = await m.query('SELECT 1 FROM price_plan WHERE lower(name) = lower($1) AND id <> $2', [
      name,
      exceptId ?? 0,
    ]);
    return rows.length > 0;
  }

  async save(
    m: EntityManager,
    plan: { id?: number; name: string; isDefault: boolean; stages: PricePlanStage[] },
  ): Promise<number> {
    if (plan.isDefault)
      await m.query('UPDATE price_plan SET is_default = false WHERE is_default AND id <> $1', [plan.id ?? 0]);
    let id = plan.id;
    if (id === undefined) {
      const [row] = await m.query('INSERT INTO price_plan (name, is_default) VALUES ($1, $2) RETURNING id', [
        plan.name,
        plan.isDefault,
      ]);
      id = Number(row.id);
    } else {
      await m.query('UPDATE price_plan SET name = $2, is_default = $3, updated_at = now() WHERE id = $1', [
        id,
        plan.name,
        plan.isDefault,
      ]);
      await m.query('DELETE FROM price_plan_stage WHERE plan_id = $1', [id]);
    }
    for (const [seq, s] of plan.stages.entries()) {
      await m.query(
        `INSERT INTO price_plan_stage (plan_id, seq, stage_type, start_minute, end_minute, electricity_price, service_fee)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, seq, s.stageType, s.startMinute, s.endMinute, s.electricityPrice, s.serviceFee],
      );
    }
    return id;
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

  async assign(m: EntityManager, stationId: number, planId: number, effectiveFrom: Date): Promise<void> {
    await m.query(
      `INSERT INTO station_price_plan (station_id, plan_id, effective_from) VALUES ($1, $2, $3)
       ON CONFLICT (station_id, effective_from) DO UPDATE SET plan_id = EXCLUDED.plan_id`,
      [stationId, planId, effectiveFrom],
    );
  }
}
