import type { DataSource, EntityManager } from 'typeorm';
import type { DiscountPlanView, SaveDiscountPlanDto } from './dto/discount-plan.dto';

const COLUMNS = `id, name, customer_type, price_discount, service_fee_discount, valid_from, valid_to, enabled, updated_at,
  (SELECT coalesce(json_agg(json_build_object('idTag', c.id_tag) ORDER BY c.id_tag), '[]')
     FROM discount_plan_card c WHERE c.plan_id = discount_plan.id) AS details`;

function toView(r: Record<string, unknown>): DiscountPlanView {
  return {
    id: Number(r['id']),
    name: String(r['name']),
    customerType: Number(r['customer_type']) as DiscountPlanView['customerType'],
    priceDiscount: Number(r['price_discount']),
    serviceFeeDiscount: Number(r['service_fee_discount']),
    validFrom: new Date(r['valid_from'] as string).toISOString(),
    validTo: new Date(r['valid_to'] as string).toISOString(),
    enabled: r['enabled'] === true,
    updatedAt: new Date(r['updated_at'] as string).toISOString(),
    details: r['details'] as { idTag: string }[],
  };
}

/** The only file that touches the database for discount plans. */
export class DiscountPlanRepository {
  constructor(private readonly dataSource: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  async page(page: number, size: number): Promise<{ rows: DiscountPlanView[]; total: number }> {
    const [{ total }] = await this.dataSource.query('SELECT count(*)::int AS total FROM discount_plan');
    const rows = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM discount_plan ORDER BY id DESC LIMIT $1 OFFSET $2`,
      [size, (page - 1) * size],
    );
    return { rows: rows.map(toView), total };
  }

  async find(m: EntityManager, id: number): Promise<DiscountPlanView | undefined> {
    const rows = await m.query(`SELECT ${COLUMNS} FROM discount_plan WHERE id = $1`, [id]);
    return rows.length ? toView(rows[0]) : undefined;
  }

  async nameTaken(m: EntityManager, name: string, exceptId?: number): Promise<boolean> {
    const rows = await m.query('SELECT 1 FROM discount_plan WHERE lower(name) = lower($1) AND id <> $2', [
      name,
      exceptId ?? 0,
    ]);
    return rows.length > 0;
  }

  async save(m: EntityManager, id: number | undefined, dto: SaveDiscountPlanDto): Promise<number> {
    const values = [
      dto.name,
      dto.customerType,
      dto.priceDiscount,
      dto.serviceFeeDiscount,
      dto.validFrom,
      dto.validTo,
      dto.enabled,
    ];
    let planId: number;
    if (id === undefined) {
      const [row] = await m.query(
        `INSERT INTO discount_plan (name, customer_type, price_discount, service_fee_discount, valid_from, valid_to, enabled)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        values,
      );
      planId = row.id;
    } else {
      await m.query(
        `UPDATE discount_plan SET name = $1, customer_type = $2, price_discount = $3, service_fee_discount = $4,
                valid_from = $5, valid_to = $6, enabled = $7, updated_at = now() WHERE id = $8`,
        [...values, id],
      );
      await m.query('DELETE FROM discount_plan_card WHERE plan_id = $1', [id]);
      planId = id;
    }
    await m.query(`INSERT INTO discount_plan_card (plan_id, id_tag) SELECT $1, unnest($2::text[])`, [
      planId,
      dto.details.map((d) => d.idTag),
    ]);
    return planId;
  }

  async delete(m: EntityManager, id: number): Promise<void> {
    await m.query('DELETE FROM discount_plan WHERE id = $1', [id]);
  }
}
