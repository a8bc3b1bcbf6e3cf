import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import type { AssetDefinition, AssetHooks } from './asset-definition';
import { AssetCrudService } from './asset-crud.service';
import type { AssetRepository } from './asset.repository';

const def: AssetDefinition = {
  kind: 'things',
  noun: 'Thing',
  table: 'thing',
  scoped: false,
  permission: 'basic:thing',
  columns: [{ field: 'name', column: 'name', kind: 'text' }],
  references: [],
  unique: [],
  createSchema: z.object({ name: z.string() }),
  updateSchema: z.object({ name: z.string() }),
  filters: [],
};
const scope = { rootIds: [1], pathPatterns: ['/1/%'] };

function serviceWith(hooks: AssetHooks) {
  const m = {} as EntityManager;
  const repository = {
    insert: jest.fn().mockResolvedValue(7),
    find: jest.fn().mockResolvedValue({ id: 7, name: 'a' }),
    transaction: jest.fn((work: (m: EntityManager) => Promise<unknown>) => work(m)),
  };
  const service = new AssetCrudService(
    def,
    repository as unknown as AssetRepository,
    { scopeOf: async () => scope },
    hooks,
  );
  return { service, repository, m };
}

describe('AssetCrudService.createIn', () => {
  it('reads the written row once when no afterSave hook can change it (one query less per import row)', async () => {
    const { service, repository, m } = serviceWith({});
    await expect(service.createIn(scope, { name: 'a' }, m)).resolves.toEqual({ id: 7, name: 'a' });
    expect(repository.insert).toHaveBeenCalledTimes(1);
    expect(repository.find).toHaveBeenCalledTimes(1);
  });

  it('reads the row again after an afterSave hook, which may change it', async () => {
    const afterSave = jest.fn().mockResolvedValue(undefined);
    const { service, repository, m } = serviceWith({ afterSave });
    repository.find
      .mockResolvedValueOnce({ id: 7, name: 'a' })
      .mockResolvedValueOnce({ id: 7, name: 'a', labels: [1] });
    await expect(service.createIn(scope, { name: 'a' }, m)).resolves.toEqual({
      id: 7,
      name: 'a',
      labels: [1],
    });
    expect(afterSave).toHaveBeenCalledWith(m, { id: 7, name: 'a' }, expect.anything());
    expect(repository.find).toHaveBeenCalledTimes(2);
  });
});
