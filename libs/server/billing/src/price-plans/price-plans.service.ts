import { type AuthPrincipal, ValidationException } from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import {
  formatMinute,
  parseMinute,
  pricePlanProblems,
  PRICE_SCALE,
  type PricePlanStage,
} from '../pricing/price-plan';
import type { BillingDataScopeProvider } from '../shared/data-scope';
import type {
  AssignPricePlanDto,
  PricePlanView,
  SavePricePlanDto,
  StationPricePlanView,
} from './dto/price-plan.dto';
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
    effectiveFrom: row.effectiveFrom?.toISOString() ?? null,
    stages: row.stages.map((s) => ({
      stageType: s.stageType,
      startTime: formatMinute(s.startMinute),
      endTime: formatMinute(s.endMinute),
      electricityPrice: formatYuan(s.electricityPrice),
      serviceFee: formatYuan(s.serviceFee),
    })),
  };
}

/** How far in the past an `effectiveFrom` may lie and still count as now (clock skew, latency). */
export const EFFECTIVE_FROM_GRACE_MS = 60_000;

/** What the service asks of the repository (its unit test fakes exactly this). */
export type PricePlanStore = Pick<
  PricePlanRepository,
  | 'transaction'
  | 'page'
  | 'find'
  | 'usage'
  | 'delete'
  | 'nameTaken'
  | 'save'
  | 'stationVisible'
  | 'assign'
  | 'stationHistory'
>;

/**
 * Price plans. Editing a plan's stages adds a version effective from a given instant (now by default,
 * never in the past): a session is priced with the stages in force at its start, so an edit never
 * re-prices history, nor a session already running. A station's plan changes from a given instant on.
 */
export class PricePlansService {
  constructor(
    private readonly repository: PricePlanStore,
    private readonly scopes: BillingDataScopeProvider,
    private readonly clock: () => Date = () => new Date(),
  ) {}

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

  /**
   * Assigns a plan to a station from `effectiveFrom` (now when absent). The station must exist and lie in
   * the caller's data scope (else 404, as everywhere in billing); the instant must not be in the past.
   */
  async assignToStation(me: AuthPrincipal, stationId: number, dto: AssignPricePlanDto): Promise<void> {
    const from = this.effectiveFrom(dto.effectiveFrom);
    await this.requireStation(me, stationId);
    await this.require(dto.planId);
    await this.repository.transaction((m) =>
      this.repository.assign(m, stationId, dto.planId, from, me.username),
    );
  }

  /** The station's plans, newest first, each with the instant it applied from and until. */
  async stationHistory(me: AuthPrincipal, stationId: number): Promise<StationPricePlanView[]> {
    await this.requireStation(me, stationId);
    const rows = await this.repository.transaction((m) => this.repository.stationHistory(m, stationId));
    return rows.map((r) => ({
      planId: r.planId,
      planName: r.planName,
      from: r.from.toISOString(),
      until: r.until?.toISOString() ?? null,
      assignedAt: r.assignedAt.toISOString(),
      assignedBy: r.assignedBy,
    }));
  }

  private async requireStation(me: AuthPrincipal, stationId: number): Promise<void> {
    const scope = await this.scopes.scopeOf(me.userId);
    const visible = await this.repository.transaction((m) =>
      this.repository.stationVisible(m, stationId, scope),
    );
    // Outside the caller's scope reads the same as missing: no hint that the station exists.
    if (!visible)
      throw new PricePlansException(PricePlansErrorCode.StationNotFound, `Station ${stationId} not found`);
  }

  /** `effectiveFrom` as an instant: now when absent; in the past (beyond the grace) is a 400. */
  private effectiveFrom(text: string | undefined): Date {
    const now = this.clock();
    if (text === undefined) return now;
    const at = new Date(text);
    if (at.getTime() < now.getTime() - EFFECTIVE_FROM_GRACE_MS)
      throw new ValidationException([
        { field: 'effectiveFrom', message: `must not be in the past (now is ${now.toISOString()})` },
      ]);
    return at.getTime() < now.getTime() ? now : at;
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
    const effectiveFrom = this.effectiveFrom(dto.effectiveFrom);
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
      return {
        id: await this.repository.save(m, {
          id,
          name: dto.name,
          isDefault: dto.isDefault,
          stages,
          effectiveFrom,
        }),
      };
    });
  }
}
