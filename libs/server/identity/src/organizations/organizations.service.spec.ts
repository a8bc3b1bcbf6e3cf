import type { AuthPrincipal } from '@voltdepot/server-core';
import { InMemoryTable } from '@voltdepot/server-testing';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { OrganizationAccess } from '../shared/scope-guard.service';
import type { OrganizationRow } from './organization.repository';
import { OrganizationsService, type OrganizationStore } from './organizations.service';

/** The organisation table: materialised paths (`/1/2/`) kept as the repository keeps them. */
class FakeOrganizations implements OrganizationStore {
  readonly rows = new InMemoryTable<OrganizationRow>({ sys_organization_code_uq: (o) => o.code });
  /** Organisations some user belongs to. */
  readonly withUsers = new Set<number>();

  async inScope(pathPatterns: string[]) {
    return this.rows.filter((o) => pathPatterns.some((p) => o.path.startsWith(p.replace(/%$/, ''))));
  }
  async byId(id: number) {
    return this.rows.get(id) ?? null;
  }
  async insert(org: { parentId: number | null; code: string; name: string; sort: number }) {
    const { id } = this.rows.insert({ ...org, path: '' });
    const parentPath = org.parentId === null ? '/' : this.rows.get(org.parentId)!.path;
    this.rows.update(id, { path: `${parentPath}${id}/` });
    return id;
  }
  async update(org: OrganizationRow, changes: Partial<OrganizationRow>, newParentPath?: string) {
    this.rows.update(org.id, { ...changes });
    if (newParentPath === undefined) return;
    for (const row of this.rows.filter((o) => o.path.startsWith(org.path)))
      this.rows.update(row.id, { path: `${newParentPath}${org.id}/${row.path.slice(org.path.length)}` });
  }
  async hasChildrenOrUsers(id: number) {
    return this.withUsers.has(id) || this.rows.filter((o) => o.parentId === id).length > 0;
  }
  async delete(id: number) {
    this.rows.delete(id);
  }
  /** The organisations' lookup (OrganizationAccess reads paths through it). */
  async pathsOf(ids: number[]) {
    return new Map(this.rows.filter((o) => ids.includes(o.id)).map((o) => [o.id, o.path]));
  }
}

const me = { userId: 9, username: 'fz.admin' } as AuthPrincipal;

/** ROOT(1) > FZ(2) > FZ-N(3), and ROOT > HF(4); the caller sees the FZ subtree. */
async function setup() {
  const orgs = new FakeOrganizations();
  await orgs.insert({ parentId: null, code: 'ROOT', name: 'Root', sort: 0 });
  const fz = await orgs.insert({ parentId: 1, code: 'FZ', name: 'Fuzhou', sort: 0 });
  const north = await orgs.insert({ parentId: fz, code: 'FZ-N', name: 'North', sort: 0 });
  const hf = await orgs.insert({ parentId: 1, code: 'HF', name: 'Hefei', sort: 0 });
  let pathPatterns = ['/1/2/%'];
  const service = new OrganizationsService(
    orgs,
    { scopeOf: async () => ({ rootIds: [], pathPatterns }) },
    new OrganizationAccess(orgs),
  );
  const seeAll = () => (pathPatterns = ['/1/%']);
  return { orgs, service, fz, north, hf, seeAll };
}

describe('OrganizationsService', () => {
  it("shows the caller's subtrees as a forest: a visible node's hidden parent is no parent", async () => {
    const { service, fz, north } = await setup();
    expect(await service.tree(me)).toEqual([
      expect.objectContaining({ id: fz, parentId: null, children: [expect.objectContaining({ id: north })] }),
    ]);
  });

  it.each([
    ['outside the caller’s scope', 4, IdentityErrorCodes.OutOfDataScope, 403],
    ['missing', 99, IdentityErrorCodes.OrganizationNotFound, 404],
  ])('adds no organisation under a parent %s', async (_case, parentId, code, status) => {
    const { service, orgs } = await setup();
    const refused = service.create(me, { parentId, code: 'NEW', name: 'New' });
    await expect(refused).rejects.toMatchObject({
      code,
      httpStatus: status,
      details: [expect.objectContaining({ field: 'parentId' })],
    });
    expect(orgs.rows.size).toBe(4);
  });

  it('refuses a code another organisation has (409 on code)', async () => {
    const { service, fz } = await setup();
    await expect(service.create(me, { parentId: fz, code: 'HF', name: 'Copy' })).rejects.toMatchObject({
      code: IdentityErrorCodes.OrganizationCodeTaken,
      details: [{ field: 'code', message: 'Already taken' }],
    });
  });

  it('moves a subtree under another parent, rewriting the paths below it', async () => {
    const { service, orgs, fz, north, hf, seeAll } = await setup();
    seeAll();
    const south = await orgs.insert({ parentId: north, code: 'FZ-N-S', name: 'South', sort: 0 });
    await service.update(me, north, { parentId: hf });
    expect(orgs.rows.get(north)).toMatchObject({ parentId: hf, path: `/1/${hf}/${north}/` });
    expect(orgs.rows.get(south)?.path).toBe(`/1/${hf}/${north}/${south}/`);
    expect(orgs.rows.get(fz)?.path).toBe(`/1/${fz}/`);
  });

  it.each([
    ['under itself', (ids: { fz: number; north: number }) => ids.fz],
    ['under its own descendant', (ids: { fz: number; north: number }) => ids.north],
  ])('refuses to move an organisation %s (a cycle)', async (_case, target) => {
    const { service, orgs, fz, north } = await setup();
    await expect(service.update(me, fz, { parentId: target({ fz, north }) })).rejects.toMatchObject({
      code: IdentityErrorCodes.OrganizationCycle,
      details: [{ field: 'parentId', message: 'Would create a cycle' }],
    });
    expect(orgs.rows.get(fz)?.parentId).toBe(1);
  });

  it('never moves the root', async () => {
    const { service, hf, seeAll } = await setup();
    seeAll();
    await expect(service.update(me, 1, { parentId: hf })).rejects.toMatchObject({
      code: IdentityErrorCodes.OrganizationCycle,
      message: 'The root organization cannot be moved',
    });
  });

  it('moves nothing into an organisation outside the scope, and reads one outside as missing', async () => {
    const { service, north, hf } = await setup();
    await expect(service.update(me, north, { parentId: hf })).rejects.toMatchObject({
      code: IdentityErrorCodes.OutOfDataScope,
    });
    await expect(service.update(me, hf, { name: 'Mine' })).rejects.toMatchObject({
      code: IdentityErrorCodes.OrganizationNotFound,
    });
    await expect(service.remove(me, hf)).rejects.toMatchObject({
      code: IdentityErrorCodes.OrganizationNotFound,
    });
  });

  it('deletes no organisation that still has sub-organisations or users (409)', async () => {
    const { service, orgs, fz, north } = await setup();
    orgs.withUsers.add(north);
    for (const id of [fz, north])
      await expect(service.remove(me, id)).rejects.toMatchObject({
        code: IdentityErrorCodes.OrganizationNotEmpty,
        httpStatus: 409,
      });
    expect(orgs.rows.size).toBe(4);
  });

  it('deletes an empty organisation', async () => {
    const { service, orgs, north } = await setup();
    await service.remove(me, north);
    expect(orgs.rows.get(north)).toBeUndefined();
  });
});
