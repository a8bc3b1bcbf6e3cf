import type { GridPage } from '@voltdepot/shared-contracts';
import {
  formatMinute,
  parseMinute,
  pricePlanProblems,
  PRICE_SCALE,
  type PricePlanStage,
} from '../pricing/price-plan';
import type { AssignPricePlanDto, PricePlanView, SavePricePlanDto } from './dto/price-plan.dto';
import type { PricePlanRepository, PricePlanRow } from './price-plan.repository';
import { PricePlansErrorCode, PricePlansException } from './price-plans.exception';

export function formatYuan(units: number): string {
  return `${Math.floor(units / PRICE_SCALE)}.${String(units % PRICE_SCALE).padStart(4, '0')}`;
}

function toView(row: PricePlanRow): PricePlanView {
  return {
    id: row.id,
    name: row.name,
    isDefault: row.isDefault,
    updatedAt: row.updatedAt.toISOString(),
    stages: row.stages.map((s) => ({
      stageType: s.stageType,
      startTime: formatMinute(s.startMinute),
      endTime: formatMinute(s.endMinute),
      electricityPrice: formatYuan(s.electricityPrice),
      serviceFee: formatYuan(s.serviceFee),
    })),
  };
}

/**
 * Price plans. Editing a plan affects sessions settled afterwards only: every order keeps the amounts it
 * was settled with, so history is never re-priced. A station's plan changes from a given instant on.
 */
export class PricePlansService {
  constructor(private readonly repository: PricePlanRepository) {}

  async page(page: number, size: number): Promise<GridPage<PricePlanView>> {
    const { rows, total } = await this.repository.page(page, size);
    return { list: rows.map(toView), total };
  }

  async get(id: number): Promise<PricePlanView> {
    return toView(await this.require(id));
  }

  async create(dto: SavePricePlanDto): Promise<{ id: number }> {
    return this.save(undefined, dto);
  }

  async update(id: number, dto: SavePricePlanDto): Promise<{ id: number }> {
    await this.require(id);
    return this.save(id, dto);
  }

  async remove(id: number): Promise<void> {
    await this.repository.transaction(async (m) => {
      const plan = await this.repository.find(m, id);
      if (!plan)
        throw new PricePlansException(PricePlansErrorCode.NotFound, `Price plan ${id} does not exist`);
      const usage = await this.repository.usage(m, id);
      if (plan.isDefault || usage.stations || usage.orders) {
        throw new PricePlansException(
          PricePlansErrorCode.InUse,
          `Price plan ${id} is in use (${[plan.isDefault ? 'default plan' : '', usage.stations ? `${usage.stations} station assignment(s)` : '', usage.orders ? `${usage.orders} order(s)` : ''].filter(Boolean).join(', ')}) and cannot be deleted`,
        );
      }
      await this.repository.delete(m, id);
    });
  }

  async assignToStation(stationId: number, dto: AssignPricePlanDto): Promise<void> {
    await this.require(dto.planId);
    await this.repository.transaction((m) =>
      this.repository.assign(m, stationId, dto.planId, new Date(dto.effectiveFrom)),
    );
  }

  private async require(id: number): Promise<PricePlanRow> {
    const plan = await this.repository.transaction((m) => this.repository.find(m, id));
    if (!plan) throw new PricePlansException(PricePlansErrorCode.NotFound, `Price plan ${id} does not exist`);
    return plan;
  }

  private async save(id: number | undefined, dto: SavePricePlanDto): Promise<{ id: number }> {
    const stages: PricePlanStage[] = dto.stages.map((s) => ({
      stageType: s.stageType,
      startMinute: parseMinute(s.startTime),
      endMinute: parseMinute(s.endTime) === 0 ? 1440 : parseMinute(s.endTime),
      electricityPrice: s.electricityPrice,
      serviceFee: s.serviceFee,
    }));
    const problems = pricePlanProblems(stages);
    if (problems.length) {
      throw new PricePlansException(PricePlansErrorCode.InvalidStages, problems.join('; '), { problems });
    }
    return this.repository.transaction(async (m) => {
      if (await this.repository.nameTaken(m, dto.name, id)) {
        throw new PricePlansException(
          PricePlansErrorCode.DuplicateName,
          `A price plan named '${dto.name}' already exists`,
        );
      }
      return { id: await this.repository.save(m, { id, name: dto.name, isDefault: dto.isDefault, stages }) };
    });
  }
}
