import { ValidationException } from '@voltdepot/server-core';
import { InMemoryTable, inMemoryTransaction } from '@voltdepot/server-testing';
import type { AuthPrincipal } from '@voltdepot/server-core';
import type { BillingDataScope } from '../shared/data-scope';
import type { SavePricePlanDto } from './dto/price-plan.dto';
import type { PricePlanRow, StationPlanRow } from './price-plan.repository';
import { PricePlansErrorCode } from './price-plans.exception';
import { EFFECTIVE_FROM_GRACE_MS, PricePlansService, type PricePlanStore } from './price-plans.service';

const NOW = new Date('2026-11-20T08:00:00.000Z');
const me = { userId: 7, username: 'alice' } as AuthPrincipal;

/** The plan tables as the service sees them: plans with their latest stages, station assignments. */
class FakePricePlans implements PricePlanStore {
  readonly plans = new InMemoryTable<PricePlanRow>();
  readonly assignments = new InMemoryTable<StationPlanRow & { id: number; stationId: number }>();
  /** Stations by id, with the organisation path their scope is matched on. */
  readonly stations = new Map<number, string>();
  readonly usageOf = new Map<number, { stations: number; orders: number }>();

  transaction<T>(work: (m: never) => Promise<T>): Promise<T> {
    return inMemoryTransaction([this.plans, this.assignments], work);
  }
  async page(page: number, size: number) {
    const rows = this.plans.filter().reverse();
    return { rows: rows.slice((page - 1) * size, page * size), total: rows.length };
  }
  async find(_m: unknown, id: number) {
    return this.plans.get(id);
  }
  async usage(_m: unknown, id: number) {
    return this.usageOf.get(id) ?? { stations: 0, orders: 0 };
  }
  async delete(_m: unknown, id: number) {
    this.plans.delete(id);
  }
  async nameTaken(_m: unknown, name: string, exceptId?: number) {
    return (
      this.plans.filter((p) => p.name.toLowerCase() === name.toLowerCase() && p.id !== exceptId).length > 0
    );
  }
  async save(_m: unknown, plan: Parameters<PricePlanStore['save']>[1]) {
    if (plan.isDefault)
      for (const other of this.plans.filter((p) => p.isDefault))
        this.plans.update(other.id, { isDefault: false });
    const values = { name: plan.name, isDefault: plan.isDefault, stages: plan.stages, updatedAt: NOW };
    if (plan.id === undefined) return this.plans.insert({ ...values, effectiveFrom: null }).id;
    this.plans.update(plan.id, { ...values, effectiveFrom: plan.effectiveFrom });
    return plan.id;
  }
  async stationVisible(_m: unknown, stationId: number, scope: BillingDataScope) {
    const path = this.stations.get(stationId);
    if (path === undefined) return undefined;
    return scope.pathPatterns.some((pattern) => path.startsWith(pattern.replace(/%$/, '')));
  }
  async assign(_m: unknown, stationId: number, planId: number, from: Date, assignedBy: string) {
    const planName = this.plans.get(planId)!.name;
    this.assignments.insert({ stationId, planId, planName, from, until: null, assignedAt: NOW, assignedBy });
  }
  async stationHistory(_m: unknown, stationId: number) {
    return this.assignments.filter((a) => a.stationId === stationId).reverse();
  }
}

const DAY = [
  {
    stageType: 'valley' as const,
    startTime: '00:00',
    endTime: '08:00',
    electricityPrice: 3200,
    serviceFee: 4000,
  },
  {
    stageType: 'peak' as const,
    startTime: '08:00',
    endTime: '24:00',
    electricityPrice: 8523,
    serviceFee: 8000,
  },
];
const aPlan = (o: Partial<SavePricePlanDto> = {}): SavePricePlanDto => ({
  name: 'Depot tariff',
  isDefault: false,
  stages: DAY,
  ...o,
});

function setup() {
  const repository = new FakePricePlans();
  // The caller sees the Fuzhou subtree; station 1 is in it, station 2 is in Hefei.
  const service = new PricePlansService(
    repository,
    { scopeOf: async () => ({ pathPatterns: ['/1/2/%'] }) },
    () => NOW,
  );
  repository.stations.set(1, '/1/2/5/');
  repository.stations.set(2, '/1/3/');
  return { repository, service };
}

describe('PricePlansService', () => {
  describe('saving a plan', () => {
    it('stores the stages in price units and shows them back as yuan with 4 decimals', async () => {
      const { service } = setup();
      const { id } = await service.create(aPlan());
      expect((await service.get(id)).stages).toEqual([
        {
          stageType: 'valley',
          startTime: '00:00',
          endTime: '08:00',
          electricityPrice: '0.3200',
          serviceFee: '0.4000',
        },
        {
          stageType: 'peak',
          startTime: '08:00',
          endTime: '24:00',
          electricityPrice: '0.8523',
          serviceFee: '0.8000',
        },
      ]);
    });

    it('refuses stages that leave part of the day uncovered, and writes nothing', async () => {
      const { service, repository } = setup();
      const refused = service.create(aPlan({ stages: [DAY[0]] }));
      await expect(refused).rejects.toMatchObject({
        code: PricePlansErrorCode.InvalidStages,
        httpStatus: 422,
      });
      expect(repository.plans.size).toBe(0);
    });

    it.each([
      ['another plan with the same name', 'Depot tariff'],
      ['the same name in other letter case', 'DEPOT TARIFF'],
    ])('refuses %s (409)', async (_case, name) => {
      const { service } = setup();
      await service.create(aPlan());
      await expect(service.create(aPlan({ name }))).rejects.toMatchObject({
        code: PricePlansErrorCode.DuplicateName,
        httpStatus: 409,
      });
    });

    it('lets a plan keep its own name when edited', async () => {
      const { service } = setup();
      const { id } = await service.create(aPlan());
      await expect(service.update(id, aPlan({ isDefault: true }))).resolves.toEqual({ id });
    });

    it('updates only plans that exist (404)', async () => {
      const { service } = setup();
      await expect(service.update(99, aPlan())).rejects.toMatchObject({ code: PricePlansErrorCode.NotFound });
    });

    it.each([
      ['absent: now', undefined, NOW.toISOString()],
      [
        'a moment ago, within the grace: now',
        new Date(NOW.getTime() - 30_000).toISOString(),
        NOW.toISOString(),
      ],
      ['later', '2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    ])('takes effectiveFrom %s', async (_case, effectiveFrom, applied) => {
      const { service } = setup();
      const { id } = await service.create(aPlan());
      await service.update(id, aPlan({ effectiveFrom }));
      expect((await service.get(id)).effectiveFrom).toBe(applied);
    });

    it('refuses an effectiveFrom in the past beyond the grace (400 on the field)', async () => {
      const { service } = setup();
      const past = new Date(NOW.getTime() - EFFECTIVE_FROM_GRACE_MS - 1000).toISOString();
      const refused = service.create(aPlan({ effectiveFrom: past }));
      await expect(refused).rejects.toBeInstanceOf(ValidationException);
      await expect(refused).rejects.toMatchObject({
        fields: [expect.objectContaining({ field: 'effectiveFrom' })],
      });
    });
  });

  describe('deleting a plan', () => {
    it.each([
      ['the default plan', { isDefault: true }, { stations: 0, orders: 0 }, /default plan/],
      ['a plan assigned to stations', {}, { stations: 2, orders: 0 }, /2 station assignment/],
      ['a plan that priced orders', {}, { stations: 0, orders: 5 }, /5 order/],
    ])('refuses %s (409), naming why', async (_case, plan, usage, why) => {
      const { service, repository } = setup();
      const { id } = await service.create(aPlan(plan));
      repository.usageOf.set(id, usage);
      const refused = service.remove(id);
      await expect(refused).rejects.toMatchObject({ code: PricePlansErrorCode.InUse, httpStatus: 409 });
      await expect(refused).rejects.toThrow(why);
      expect(repository.plans.get(id)).toBeDefined();
    });

    it('deletes a plan nothing uses; a missing one is a 404', async () => {
      const { service, repository } = setup();
      const { id } = await service.create(aPlan());
      await service.remove(id);
      expect(repository.plans.size).toBe(0);
      await expect(service.remove(id)).rejects.toMatchObject({ code: PricePlansErrorCode.NotFound });
    });
  });

  describe("a station's plan", () => {
    it('assigns from now by default, recording who assigned it', async () => {
      const { service } = setup();
      const { id } = await service.create(aPlan());
      await service.assignToStation(me, 1, { planId: id });
      expect(await service.stationHistory(me, 1)).toEqual([
        expect.objectContaining({ planId: id, from: NOW.toISOString(), assignedBy: 'alice' }),
      ]);
    });

    it.each([
      ['outside the caller’s data scope', 2],
      ['missing', 3],
    ])('reads a station %s as not found, for assigning and for its history', async (_case, stationId) => {
      const { service, repository } = setup();
      const { id } = await service.create(aPlan());
      const notFound = { code: PricePlansErrorCode.StationNotFound, httpStatus: 404 };
      await expect(service.assignToStation(me, stationId, { planId: id })).rejects.toMatchObject(notFound);
      await expect(service.stationHistory(me, stationId)).rejects.toMatchObject(notFound);
      expect(repository.assignments.size).toBe(0);
    });

    it('assigns only plans that exist, and never from the past', async () => {
      const { service, repository } = setup();
      await expect(service.assignToStation(me, 1, { planId: 42 })).rejects.toMatchObject({
        code: PricePlansErrorCode.NotFound,
      });
      const { id } = await service.create(aPlan());
      await expect(
        service.assignToStation(me, 1, { planId: id, effectiveFrom: '2026-01-01T00:00:00Z' }),
      ).rejects.toBeInstanceOf(ValidationException);
      expect(repository.assignments.size).toBe(0);
    });
  });
});
