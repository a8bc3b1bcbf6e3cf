import type { GridPage } from '@voltdepot/shared-contracts';
import type { DiscountPlanView, SaveDiscountPlanDto } from './dto/discount-plan.dto';
import type { DiscountPlanRepository } from './discount-plan.repository';
import { DiscountPlansErrorCode, DiscountPlansException } from './discount-plans.exception';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type DiscountPlanStore = Pick<
  DiscountPlanRepository,
  'transaction' | 'page' | 'find' | 'nameTaken' | 'save' | 'delete'
>;

/**
 * Discount plans. Settlement applies the enabled plan covering the session's card at its start; orders
 * keep the amounts they were settled with, so editing or deleting a plan never re-prices history.
 */
export class DiscountPlansService {
  constructor(private readonly repository: DiscountPlanStore) {}

  async page(page: number, size: number): Promise<GridPage<DiscountPlanView>> {
    const { rows, total } = await this.repository.page(page, size);
    return { list: rows, total };
  }

  async get(id: number): Promise<DiscountPlanView> {
    return this.repository.transaction((m) => this.require(m, id));
  }

  create(dto: SaveDiscountPlanDto): Promise<{ id: number }> {
    return this.save(undefined, dto);
  }

  update(id: number, dto: SaveDiscountPlanDto): Promise<{ id: number }> {
    return this.save(id, dto);
  }

  async remove(id: number): Promise<void> {
    await this.repository.transaction(async (m) => {
      await this.require(m, id);
      await this.repository.delete(m, id);
    });
  }

  private save(id: number | undefined, dto: SaveDiscountPlanDto): Promise<{ id: number }> {
    return this.repository.transaction(async (m) => {
      if (id !== undefined) await this.require(m, id);
      if (await this.repository.nameTaken(m, dto.name, id))
        throw new DiscountPlansException(
          DiscountPlansErrorCode.DuplicateName,
          `a discount plan named "${dto.name}" already exists`,
        );
      return { id: await this.repository.save(m, id, dto) };
    });
  }

  private async require(m: Parameters<Parameters<DiscountPlanStore['transaction']>[0]>[0], id: number) {
    const plan = await this.repository.find(m, id);
    if (!plan)
      throw new DiscountPlansException(DiscountPlansErrorCode.NotFound, `discount plan ${id} not found`);
    return plan;
  }
}
