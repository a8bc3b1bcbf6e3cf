import type { AuthPrincipal } from '@voltdepot/server-core';
import { InMemoryTable } from '@voltdepot/server-testing';
import { AuthErrorCodes, IdentityErrorCodes } from '@voltdepot/shared-contracts';
import type { DataScope } from '../shared/data-scope';
import { OrganizationAccess } from '../shared/scope-guard.service';
import type { NewUser } from './user.repository';
import { UsersService, type UserStore } from './users.service';

type User = NewUser & { id: number; roleIds: number[]; totp: boolean };

/** Organisations 2 (Fuzhou, the caller's scope) and 4 (Hefei); roles 1..3. */
const PATHS = new Map([
  [2, '/1/2/'],
  [4, '/1/4/'],
]);
const ROLES = [1, 2, 3];

class FakeUsers implements UserStore {
  readonly users = new InMemoryTable<User>({ sys_user_username_uq: (u) => u.username.toLowerCase() });

  async page() {
    return { list: [], total: 0 };
  }
  async viewById(id: number, scope: DataScope) {
    const u = this.users.get(id);
    if (!u || !scope.pathPatterns.some((p) => PATHS.get(u.organizationId)!.startsWith(p.replace(/%$/, ''))))
      return null;
    const { passwordHash: _hash, totp, ...view } = u;
    const at = '2026-11-20T00:00:00.000Z';
    return {
      ...view,
      organizationName: `org ${u.organizationId}`,
      totpEnabled: totp,
      createdAt: at,
      updatedAt: at,
    };
  }
  async findById(id: number) {
    const u = this.users.get(id);
    return u
      ? {
          ...u,
          organizationName: '',
          organizationPath: PATHS.get(u.organizationId)!,
          lastLoginAt: null,
          totpEnabled: u.totp,
          totpSecret: null,
        }
      : null;
  }
  async insert(user: NewUser, roleIds: number[]) {
    return this.users.insert({ ...user, roleIds, totp: false }).id;
  }
  async update(id: number, changes: Partial<NewUser>, roleIds?: number[]) {
    this.users.update(id, { ...changes, ...(roleIds ? { roleIds } : {}) });
  }
  async delete(id: number) {
    this.users.delete(id);
  }
  async setPassword(id: number, passwordHash: string) {
    this.users.update(id, { passwordHash });
  }
  async setTotp(id: number, secret: string | null) {
    this.users.update(id, { totp: secret !== null });
  }
  async roleIdsOf(id: number) {
    return this.users.get(id)!.roleIds;
  }
  async setRoles(id: number, roleIds: number[]) {
    this.users.update(id, { roleIds });
  }
  async existingRoleIds(ids: number[]) {
    return ids.filter((id) => ROLES.includes(id));
  }
}

/** Signed-in sessions by user; revoking keeps only the one asked to keep. */
class FakeSessions {
  readonly live = new Map<number, string[]>();
  async revokeAllOf(userId: number, keep?: string) {
    this.live.set(
      userId,
      (this.live.get(userId) ?? []).filter((s) => s === keep),
    );
  }
}

const hasher = {
  hash: async (p: string) => `hash:${p}`,
  verify: async (h: string, p: string) => h === `hash:${p}`,
};

function setup() {
  const repo = new FakeUsers();
  const sessions = new FakeSessions();
  const lookup = { pathsOf: async (ids: number[]) => new Map([...PATHS].filter(([id]) => ids.includes(id))) };
  const service = new UsersService(
    repo,
    { scopeOf: async () => ({ rootIds: [2], pathPatterns: ['/1/2/%'] }) },
    new OrganizationAccess(lookup),
    hasher,
    sessions,
  );
  const user = (o: Partial<User> = {}) =>
    repo.users.insert({
      username: `u${repo.users.size + 1}`,
      passwordHash: 'hash:Secret123',
      realName: 'Zhang San',
      phone: '13800000000',
      email: 'z@example.com',
      organizationId: 2,
      enabled: true,
      roleIds: [1],
      totp: false,
      ...o,
    }).id;
  return { repo, sessions, service, user };
}

const admin = { userId: 100, username: 'admin', sessionId: 's-admin' } as AuthPrincipal;
const newUser = {
  username: 'li.si',
  password: 'Secret123',
  realName: 'Li Si',
  organizationId: 2,
  roleIds: [2],
};

describe('UsersService', () => {
  it('creates a user with a hashed password, enabled unless told otherwise', async () => {
    const { service, repo } = setup();
    const view = await service.create(admin, newUser);
    expect(view).toMatchObject({ username: 'li.si', enabled: true, roleIds: [2] });
    expect(repo.users.get(view.id)?.passwordHash).toBe('hash:Secret123');
  });

  it.each<[string, Partial<typeof newUser>, string, string]>([
    [
      'an organisation outside the caller’s scope',
      { organizationId: 4 },
      IdentityErrorCodes.OutOfDataScope,
      'organizationId',
    ],
    [
      'an unknown organisation',
      { organizationId: 9 },
      IdentityErrorCodes.OrganizationNotFound,
      'organizationId',
    ],
    ['a role that does not exist', { roleIds: [2, 7] }, IdentityErrorCodes.RoleNotFound, 'roleIds'],
  ])('creates no user with %s', async (_case, body, code, field) => {
    const { service, repo } = setup();
    await expect(service.create(admin, { ...newUser, ...body })).rejects.toMatchObject({
      code,
      details: [expect.objectContaining({ field })],
    });
    expect(repo.users.size).toBe(0);
  });

  it('refuses a user name already taken, in any letter case (409 on username)', async () => {
    const { service, user } = setup();
    user({ username: 'li.si' });
    await expect(service.create(admin, { ...newUser, username: 'LI.SI' })).rejects.toMatchObject({
      code: IdentityErrorCodes.UsernameTaken,
      httpStatus: 409,
      details: [{ field: 'username', message: 'Already taken' }],
    });
  });

  it('reads a user of another organisation as missing, for every action', async () => {
    const { service, user } = setup();
    const hefei = user({ organizationId: 4 });
    const notFound = { code: IdentityErrorCodes.UserNotFound, httpStatus: 404 };
    await expect(service.get(admin, hefei)).rejects.toMatchObject(notFound);
    await expect(service.update(admin, hefei, { realName: 'X' })).rejects.toMatchObject(notFound);
    await expect(service.setEnabled(admin, hefei, false)).rejects.toMatchObject(notFound);
    await expect(service.resetPassword(admin, hefei, 'Other123')).rejects.toMatchObject(notFound);
    await expect(service.remove(admin, hefei)).rejects.toMatchObject(notFound);
  });

  it.each([
    ['delete', (s: UsersService, id: number) => s.remove({ ...admin, userId: id }, id)],
    ['disable', (s: UsersService, id: number) => s.setEnabled({ ...admin, userId: id }, id, false)],
  ])('does not let users %s their own account (422)', async (action, act) => {
    const { service, repo, user } = setup();
    const me = user();
    await expect(act(service, me)).rejects.toMatchObject({
      code: IdentityErrorCodes.CannotModifySelf,
      httpStatus: 422,
      message: `You cannot ${action} your own account`,
    });
    expect(repo.users.get(me)?.enabled).toBe(true);
  });

  it.each([
    ['disabling', (s: UsersService, id: number) => s.setEnabled(admin, id, false)],
    ['deleting', (s: UsersService, id: number) => s.remove(admin, id)],
    ['a password reset', (s: UsersService, id: number) => s.resetPassword(admin, id, 'Other123')],
  ])('ends every session of the user on %s', async (_case, act) => {
    const { service, sessions, user } = setup();
    const id = user();
    sessions.live.set(id, ['a', 'b']);
    await act(service, id);
    expect(sessions.live.get(id)).toEqual([]);
  });

  it('enabling a user ends no session', async () => {
    const { service, sessions, user } = setup();
    const id = user({ enabled: false });
    sessions.live.set(id, ['a']);
    await expect(service.setEnabled(admin, id, true)).resolves.toMatchObject({ enabled: true });
    expect(sessions.live.get(id)).toEqual(['a']);
  });

  it('copies a user into the same organisation with the same roles, not the contact details', async () => {
    const { service, user } = setup();
    const source = user({ roleIds: [1, 3] });
    const copy = await service.copy(admin, source, {
      username: 'wang.wu',
      password: 'Secret123',
      realName: 'Wang Wu',
    });
    expect(copy).toMatchObject({
      organizationId: 2,
      roleIds: [1, 3],
      phone: null,
      email: null,
      enabled: true,
    });
  });

  it('sets roles without duplicates, refusing unknown ones', async () => {
    const { service, user } = setup();
    const id = user();
    await expect(service.setRoles(admin, id, [2, 2, 3])).resolves.toEqual({ roleIds: [2, 3] });
    await expect(service.setRoles(admin, id, [8])).rejects.toMatchObject({
      code: IdentityErrorCodes.RoleNotFound,
    });
  });

  it('changes the own password only with the current one, keeping the current session', async () => {
    const { service, repo, sessions, user } = setup();
    const id = user();
    const me = { userId: id, username: 'me', sessionId: 'current' } as AuthPrincipal;
    sessions.live.set(id, ['current', 'phone']);
    await expect(service.changeOwnPassword(me, 'wrong', 'New12345')).rejects.toMatchObject({
      code: AuthErrorCodes.WrongPassword,
      details: [{ field: 'oldPassword', message: 'Current password is wrong' }],
    });
    await service.changeOwnPassword(me, 'Secret123', 'New12345');
    expect(repo.users.get(id)?.passwordHash).toBe('hash:New12345');
    expect(sessions.live.get(id)).toEqual(['current']);
  });
});
