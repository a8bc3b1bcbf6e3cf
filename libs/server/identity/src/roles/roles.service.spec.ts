import type { AuthPrincipal } from '@voltdepot/server-core';
import { InMemoryTable } from '@voltdepot/server-testing';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import type { RoleView } from './role.dto';
import { OrganizationAccess } from '../shared/scope-guard.service';
import { RolesService, type RoleStore } from './roles.service';

type Role = RoleView & { resourceIds: number[]; organizationIds: number[]; users: number };

/** Resources 1..5 exist; organisations 2 (in the caller's scope) and 4 (outside it). */
const RESOURCES = [1, 2, 3, 4, 5];
const PATHS = new Map([
  [2, '/1/2/'],
  [4, '/1/4/'],
]);

class FakeRoles implements RoleStore {
  readonly roles = new InMemoryTable<Role>({ sys_role_code_uq: (r) => r.code });

  async page() {
    return { list: this.roles.filter(), total: this.roles.size };
  }
  async all() {
    return this.roles.filter();
  }
  async byId(id: number) {
    return this.roles.get(id) ?? null;
  }
  async insert(role: { code: string; name: string; description: string | null }) {
    const at = '2026-11-20T00:00:00.000Z';
    return this.roles.insert({
      ...role,
      builtin: false,
      createdAt: at,
      updatedAt: at,
      resourceIds: [],
      organizationIds: [],
      users: 0,
    }).id;
  }
  async update(id: number, changes: { code?: string; name?: string; description?: string | null }) {
    this.roles.update(id, changes);
  }
  async userCount(id: number) {
    return this.roles.get(id)!.users;
  }
  async delete(id: number) {
    this.roles.delete(id);
  }
  async resourceIds(id: number) {
    return this.roles.get(id)!.resourceIds;
  }
  async existingResourceIds(ids: number[]) {
    return ids.filter((id) => RESOURCES.includes(id));
  }
  async setResources(id: number, resourceIds: number[]) {
    this.roles.update(id, { resourceIds });
  }
  async organizationIds(id: number) {
    return this.roles.get(id)!.organizationIds;
  }
  async setOrganizations(id: number, organizationIds: number[]) {
    this.roles.update(id, { organizationIds });
  }
}

const me = { userId: 1, username: 'admin' } as AuthPrincipal;

function setup() {
  const repo = new FakeRoles();
  const lookup = { pathsOf: async (ids: number[]) => new Map([...PATHS].filter(([id]) => ids.includes(id))) };
  const service = new RolesService(
    repo,
    { scopeOf: async () => ({ rootIds: [2], pathPatterns: ['/1/2/%'] }) },
    new OrganizationAccess(lookup),
    { tree: async () => [] },
    { tree: async () => [] },
  );
  const builtin = (code: string) => {
    const id = repo.roles.insert({
      code,
      name: code,
      description: null,
      builtin: true,
      createdAt: '',
      updatedAt: '',
      resourceIds: [],
      organizationIds: [],
      users: 0,
    }).id;
    return id;
  };
  return { repo, service, builtin };
}

describe('RolesService', () => {
  it('refuses a role code already taken (409 on code)', async () => {
    const { service } = setup();
    await service.create({ code: 'dispatcher', name: 'Dispatcher' });
    await expect(service.create({ code: 'dispatcher', name: 'Other' })).rejects.toMatchObject({
      code: IdentityErrorCodes.RoleCodeTaken,
      httpStatus: 409,
      details: [{ field: 'code', message: 'Already taken' }],
    });
  });

  it("keeps a built-in role's code, but lets its name change", async () => {
    const { service, repo, builtin } = setup();
    const admin = builtin('admin');
    await expect(service.update(admin, { code: 'root' })).rejects.toMatchObject({
      code: IdentityErrorCodes.RoleBuiltin,
      httpStatus: 422,
    });
    await expect(service.update(admin, { code: 'admin', name: 'Administrators' })).resolves.toMatchObject({
      code: 'admin',
      name: 'Administrators',
    });
    expect(repo.roles.get(admin)?.code).toBe('admin');
  });

  it.each([
    [
      'a built-in role',
      (r: FakeRoles, id: number) => r.roles.update(id, { builtin: true }),
      IdentityErrorCodes.RoleBuiltin,
      422,
    ],
    [
      'a role users still hold',
      (r: FakeRoles, id: number) => r.roles.update(id, { users: 3 }),
      IdentityErrorCodes.RoleInUse,
      409,
    ],
  ])('deletes no %s', async (_case, given, code, status) => {
    const { service, repo } = setup();
    const { id } = await service.create({ code: 'dispatcher', name: 'Dispatcher' });
    given(repo, id);
    await expect(service.remove(id)).rejects.toMatchObject({ code, httpStatus: status });
    expect(repo.roles.get(id)).toBeDefined();
  });

  it('grants existing resources once each, refusing unknown ones (404 on resourceIds)', async () => {
    const { service, repo } = setup();
    const { id } = await service.create({ code: 'dispatcher', name: 'Dispatcher' });
    await expect(service.setResources(id, [1, 3, 3])).resolves.toEqual({ resourceIds: [1, 3] });
    await expect(service.setResources(id, [2, 9])).rejects.toMatchObject({
      code: IdentityErrorCodes.ResourceNotFound,
      details: [{ field: 'resourceIds', message: 'Unknown resource 9' }],
    });
    expect(repo.roles.get(id)?.resourceIds).toEqual([1, 3]);
  });

  it("grants only organisations inside the caller's data scope (403 on organizationIds)", async () => {
    const { service, repo } = setup();
    const { id } = await service.create({ code: 'dispatcher', name: 'Dispatcher' });
    await expect(service.setOrganizations(me, id, [2, 2])).resolves.toEqual({ organizationIds: [2] });
    await expect(service.setOrganizations(me, id, [2, 4])).rejects.toMatchObject({
      code: IdentityErrorCodes.OutOfDataScope,
      details: [expect.objectContaining({ field: 'organizationIds' })],
    });
    expect(repo.roles.get(id)?.organizationIds).toEqual([2]);
  });

  it('answers 404 for a role that does not exist', async () => {
    const { service } = setup();
    await expect(service.setResources(9, [1])).rejects.toMatchObject({
      code: IdentityErrorCodes.RoleNotFound,
    });
  });
});
