import { InMemoryTable, inMemoryTransaction } from '@voltdepot/server-testing';
import type { DiscountPlanView, SaveDiscountPlanDto } from './dto/discount-plan.dto';
import { DiscountPlansErrorCode } from './discount-plans.exception';
import { DiscountPlansService, type DiscountPlanStore } from './discount-plans.service';

class FakeDiscountPlans implements DiscountPlanStore {
  readonly plans = new InMemoryTable<DiscountPlanView>();

  transaction<T>(work: (m: never) => Promise<T>): Promise<T> {
    return inMemoryTransaction([this.plans], work);
  }
  async page(page: number, size: number) {
    const rows = this.plans.filter();
    return { rows: rows.slice((page - 1) * size, page * size), total: rows.length };
  }
  async find(_m: unknown, id: number) {
    return this.plans.get(id);
  }
  async nameTaken(_m: unknown, name: string, exceptId?: number) {
    return (
      this.plans.filter((p) => p.name.toLowerCase() === name.toLowerCase() && p.id !== exceptId).length > 0
    );
  }
  async save(_m: unknown, id: number | undefined, dto: SaveDiscountPlanDto) {
    const row = {
      ...dto,
      validFrom: dto.validFrom.toISOString(),
      validTo: dto.validTo.toISOString(),
      updatedAt: '2026-11-20T08:00:00.000Z',
    };
    if (id === undefined) return this.plans.insert(row).id;
    this.plans.update(id, row);
    return id;
  }
  async delete(_m: unknown, id: number) {
    this.plans.delete(id);
  }
}

const aPlan = (o: Partial<SaveDiscountPlanDto> = {}): SaveDiscountPlanDto => ({
  name: 'Fleet discount',
  customerType: 2,
  priceDiscount: 95,
  serviceFeeDiscount: 80,
  validFrom: new Date('2026-01-01T00:00:00Z'),
  validTo: new Date('2027-01-01T00:00:00Z'),
  enabled: true,
  details: [{ idTag: 'BUS-0001' }],
  ...o,
});

function setup() {
  const repository = new FakeDiscountPlans();
  return { repository, service: new DiscountPlansService(repository) };
}

describe('DiscountPlansService', () => {
  it('refuses a second plan of the same name, in any letter case (409), and writes nothing', async () => {
    const { service, repository } = setup();
    await service.create(aPlan());
    await expect(service.create(aPlan({ name: 'FLEET DISCOUNT' }))).rejects.toMatchObject({
      code: DiscountPlansErrorCode.DuplicateName,
      httpStatus: 409,
    });
    expect(repository.plans.size).toBe(1);
  });

  it("edits a plan under its own name, but not under another plan's", async () => {
    const { service } = setup();
    const { id } = await service.create(aPlan());
    await service.create(aPlan({ name: 'Night discount' }));
    await expect(service.update(id, aPlan({ priceDiscount: 90 }))).resolves.toEqual({ id });
    expect((await service.get(id)).priceDiscount).toBe(90);
    await expect(service.update(id, aPlan({ name: 'Night discount' }))).rejects.toMatchObject({
      code: DiscountPlansErrorCode.DuplicateName,
    });
  });

  it.each([
    ['reads', (s: DiscountPlansService) => s.get(9)],
    ['updates', (s: DiscountPlansService) => s.update(9, aPlan())],
    ['deletes', (s: DiscountPlansService) => s.remove(9)],
  ])('%s only plans that exist (404), creating none', async (_action, act) => {
    const { service, repository } = setup();
    await expect(act(service)).rejects.toMatchObject({
      code: DiscountPlansErrorCode.NotFound,
      httpStatus: 404,
    });
    expect(repository.plans.size).toBe(0);
  });

  it('deletes a plan', async () => {
    const { service, repository } = setup();
    const { id } = await service.create(aPlan());
    await service.remove(id);
    expect(repository.plans.size).toBe(0);
  });
});
