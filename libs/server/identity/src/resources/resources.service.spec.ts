import { InMemoryTable } from '@voltdepot/server-testing';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import type { ResourceFields, ResourceRow } from './resource.repository';
import { ResourcesService, type ResourceStore } from './resources.service';

/** The resource tree (menus and their buttons) and which user holds which resources. */
class FakeResources implements ResourceStore {
  readonly rows = new InMemoryTable<ResourceRow>({ sys_resource_code_uq: (r) => r.code });
  readonly held = new Map<number, number[]>();

  async all() {
    return this.rows.filter();
  }
  async ofUser(userId: number) {
    return this.rows.filter((r) => (this.held.get(userId) ?? []).includes(r.id));
  }
  async byId(id: number) {
    return this.rows.get(id) ?? null;
  }
  async ancestorsOf(id: number) {
    const ids: number[] = [];
    for (
      let row = this.rows.get(id);
      row;
      row = row.parentId === null ? undefined : this.rows.get(row.parentId)
    )
      ids.push(row.id);
    return ids;
  }
  async insert(f: ResourceFields) {
    return this.rows.insert(f).id;
  }
  async update(id: number, f: ResourceFields) {
    this.rows.update(id, f);
  }
  async hasChildren(id: number) {
    return this.rows.filter((r) => r.parentId === id).length > 0;
  }
  async delete(id: number) {
    this.rows.delete(id);
  }
}

function setup() {
  const repo = new FakeResources();
  return { repo, service: new ResourcesService(repo) };
}
const menu = (code: string, parentId?: number) => ({ type: 'menu' as const, code, name: code, parentId });

describe('ResourcesService', () => {
  it.each([
    [
      'a button without a menu',
      { type: 'button' as const, code: 'b', name: 'B' },
      IdentityErrorCodes.ResourceBadParent,
    ],
    ['anything under a missing parent', menu('m', 99), IdentityErrorCodes.ResourceNotFound],
  ])('refuses %s (on parentId)', async (_case, dto, code) => {
    const { service, repo } = setup();
    await expect(service.create(dto)).rejects.toMatchObject({
      code,
      details: [expect.objectContaining({ field: 'parentId' })],
    });
    expect(repo.rows.size).toBe(0);
  });

  it('puts nothing under a button', async () => {
    const { service } = setup();
    const top = await service.create(menu('basic'));
    const button = await service.create({ type: 'button', code: 'basic:add', name: 'Add', parentId: top.id });
    await expect(service.create(menu('deeper', button.id))).rejects.toMatchObject({
      code: IdentityErrorCodes.ResourceBadParent,
      message: 'A button cannot have children',
    });
  });

  it('refuses to move a resource under itself or its descendants (a cycle)', async () => {
    const { service, repo } = setup();
    const top = await service.create(menu('basic'));
    const child = await service.create(menu('basic:station', top.id));
    for (const parentId of [top.id, child.id])
      await expect(service.update(top.id, { parentId })).rejects.toMatchObject({
        code: IdentityErrorCodes.ResourceCycle,
      });
    expect(repo.rows.get(top.id)?.parentId).toBeNull();
  });

  it('refuses a code another resource has (409)', async () => {
    const { service } = setup();
    await service.create(menu('basic'));
    await expect(service.create(menu('basic'))).rejects.toMatchObject({
      code: IdentityErrorCodes.ResourceCodeTaken,
      httpStatus: 409,
    });
  });

  it("builds a user's menu from the visible menus they hold, without buttons", async () => {
    const { service, repo } = setup();
    const top = await service.create(menu('basic'));
    const station = await service.create(menu('basic:station', top.id));
    const hidden = await service.create({ ...menu('basic:hidden', top.id), visible: false });
    const button = await service.create({
      type: 'button',
      code: 'basic:station:add',
      name: 'Add',
      parentId: station.id,
    });
    repo.held.set(7, [top.id, station.id, hidden.id, button.id]);
    expect(await service.menuTreeOf(7)).toEqual([
      expect.objectContaining({
        id: top.id,
        children: [expect.objectContaining({ id: station.id, children: [] })],
      }),
    ]);
  });

  it('deletes no resource with children (409)', async () => {
    const { service } = setup();
    const top = await service.create(menu('basic'));
    await service.create(menu('basic:station', top.id));
    await expect(service.remove(top.id)).rejects.toMatchObject({
      code: IdentityErrorCodes.ResourceHasChildren,
      httpStatus: 409,
    });
  });
});
