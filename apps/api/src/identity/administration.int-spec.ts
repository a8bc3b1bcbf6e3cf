import type { GridPage, SessionTokens } from '@voltdepot/shared-contracts';
import type { DictNode, OrganizationNode, RoleView, UserView } from '@voltdepot/server-identity';
import { eventually, insertRole } from '@voltdepot/server-testing';
import ExcelJS from 'exceljs';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';

type Method = 'get' | 'post' | 'put' | 'delete';
type FailureCase = [
  name: string,
  method: Method,
  path: string,
  body: unknown,
  status: number,
  code: string,
  message: string | RegExp,
];

describe('administration (real PostgreSQL and Redis)', () => {
  let t: ApiTestApp;
  let admin: SessionTokens;
  let orgs: Record<string, number>;
  let roles: Record<string, number>;

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
    const tree = (await t.http().get('/api/organization/tree').set(bearer(admin)).expect(200))
      .body as OrganizationNode[];
    orgs = {};
    const walk = (nodes: OrganizationNode[]) =>
      nodes.forEach((n) => ((orgs[n.code] = n.id), walk(n.children)));
    walk(tree);
    const all = (await t.http().get('/api/role/all').set(bearer(admin)).expect(200)).body as RoleView[];
    roles = Object.fromEntries(all.map((r) => [r.code, r.id]));
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (tokens: SessionTokens, method: Method, path: string, body?: unknown) => {
    const req = t.http()[method](path).set(bearer(tokens));
    return body === undefined ? req : req.send(body as object);
  };

  describe('users', () => {
    it('creates, reads, updates, copies (with roles), disables and deletes a user', async () => {
      const created = (
        await as(admin, 'post', '/api/user', {
          username: 'driver.lee',
          password: 'Secret123',
          realName: 'Lee',
          phone: '+86 138-0000-0000',
          email: 'lee@example.com',
          organizationId: orgs['FZ'],
          roleIds: [roles['operator']],
        }).expect(201)
      ).body as UserView;
      expect(created).toMatchObject({
        username: 'driver.lee',
        organizationName: 'Fuzhou Bus Depot',
        enabled: true,
        roleIds: [roles['operator']],
      });
      expect(created).not.toHaveProperty('passwordHash');

      const updated = (
        await as(admin, 'put', `/api/user/${created.id}`, { realName: 'Lee Wei', phone: null }).expect(200)
      ).body as UserView;
      expect(updated).toMatchObject({ realName: 'Lee Wei', phone: null, email: 'lee@example.com' });

      const copy = (
        await as(admin, 'post', `/api/user/${created.id}/copy`, {
          username: 'driver.lee2',
          realName: 'Lee 2',
          password: 'Secret456',
        }).expect(201)
      ).body as UserView;
      expect(copy).toMatchObject({ organizationId: orgs['FZ'], roleIds: [roles['operator']], phone: null });

      const lee = await t.login('driver.lee', 'Secret123');
      await as(admin, 'put', `/api/user/${created.id}/enabled`, { enabled: false }).expect(200);
      errorOf((await as(lee, 'get', '/user/getUserExt').expect(401)).body, 'AUTH_TOKEN_REVOKED');
      await as(admin, 'put', `/api/user/${created.id}/enabled`, { enabled: true }).expect(200);

      await as(admin, 'post', `/api/user/${created.id}/resetPassword`, { password: 'NewSecret1' }).expect(
        204,
      );
      await t.login('driver.lee', 'NewSecret1');

      await as(admin, 'put', `/api/user/${created.id}/roles`, {
        roleIds: [roles['maintainer'], roles['fleet_manager']],
      }).expect(200);
      expect((await as(admin, 'get', `/api/user/${created.id}/roles`).expect(200)).body).toEqual({
        roleIds: [roles['maintainer'], roles['fleet_manager']].sort((a, b) => a - b),
      });

      await as(admin, 'delete', `/api/user/${copy.id}`).expect(204);
      errorOf((await as(admin, 'get', `/api/user/${copy.id}`).expect(404)).body, 'USER_NOT_FOUND');
    });

    it('changes the own password: wrong old password is 422, other sessions end, this one stays', async () => {
      await as(admin, 'post', '/api/user', {
        username: 'pw.user',
        password: 'First123',
        realName: 'Pw',
        organizationId: orgs['HF'],
      }).expect(201);
      const one = await t.login('pw.user', 'First123');
      const two = await t.login('pw.user', 'First123');
      const wrong = await as(one, 'put', '/user/password', {
        oldPassword: 'nope-nope',
        newPassword: 'Second123',
      }).expect(422);
      expect(errorOf(wrong.body, 'AUTH_WRONG_PASSWORD').message).toBe('Current password is wrong');
      await as(one, 'put', '/user/password', { oldPassword: 'First123', newPassword: 'Second123' }).expect(
        204,
      );
      await as(one, 'get', '/user/getUserExt').expect(200);
      await as(two, 'get', '/user/getUserExt').expect(401);
      await t.login('pw.user', 'Second123');
    });

    const failures: FailureCase[] = [
      [
        'missing fields',
        'post',
        '/api/user',
        {},
        400,
        'VALIDATION_FAILED',
        'Validation failed: username: Required; password: Required; realName: Required; organizationId: Required',
      ],
      [
        'bad types',
        'post',
        '/api/user',
        { username: 1, password: 2, realName: 3, organizationId: '1' },
        400,
        'VALIDATION_FAILED',
        /username: Expected string, received number; password: Expected string, received number; realName: Expected string, received number; organizationId: Expected number, received string/,
      ],
      [
        'too long',
        'post',
        '/api/user',
        { username: 'u'.repeat(33), password: 'p'.repeat(129), realName: 'r'.repeat(65), organizationId: 1 },
        400,
        'VALIDATION_FAILED',
        /username: String must contain at most 32 character\(s\); password: String must contain at most 128 character\(s\); realName: String must contain at most 64 character\(s\)/,
      ],
      [
        'short password',
        'post',
        '/api/user',
        { username: 'shorty', password: '12345', realName: 'S', organizationId: 1 },
        400,
        'VALIDATION_FAILED',
        'Validation failed: password: Password must have at least 6 characters',
      ],
      [
        'bad characters',
        'post',
        '/api/user',
        { username: 'has space', password: '123456', realName: 'S', organizationId: 1 },
        400,
        'VALIDATION_FAILED',
        'Validation failed: username: Only letters, digits and _ . @ - are allowed',
      ],
      [
        'unknown field',
        'post',
        '/api/user',
        { username: 'extra', password: '123456', realName: 'S', organizationId: 1, admin: true },
        400,
        'VALIDATION_FAILED',
        "Validation failed: (root): Unrecognized key(s) in object: 'admin'",
      ],
      [
        'bad email',
        'post',
        '/api/user',
        { username: 'mail1', password: '123456', realName: 'S', organizationId: 1, email: 'nope' },
        400,
        'VALIDATION_FAILED',
        'Validation failed: email: Invalid email',
      ],
      [
        'duplicate user name (any case)',
        'post',
        '/api/user',
        { username: 'ADMIN', password: '123456', realName: 'S', organizationId: 1 },
        409,
        'USER_USERNAME_TAKEN',
        "User name 'ADMIN' is already taken",
      ],
      [
        'unknown organisation',
        'post',
        '/api/user',
        { username: 'orphan', password: '123456', realName: 'S', organizationId: 424242 },
        404,
        'ORGANIZATION_NOT_FOUND',
        'Organization 424242 does not exist',
      ],
      [
        'unknown role',
        'post',
        '/api/user',
        { username: 'norole', password: '123456', realName: 'S', organizationId: 1, roleIds: [424242] },
        404,
        'ROLE_NOT_FOUND',
        'Role 424242 does not exist',
      ],
      [
        'unknown user (get)',
        'get',
        '/api/user/424242',
        undefined,
        404,
        'USER_NOT_FOUND',
        'User 424242 does not exist',
      ],
      [
        'unknown user (put)',
        'put',
        '/api/user/424242',
        { realName: 'X' },
        404,
        'USER_NOT_FOUND',
        'User 424242 does not exist',
      ],
      [
        'unknown user (delete)',
        'delete',
        '/api/user/424242',
        undefined,
        404,
        'USER_NOT_FOUND',
        'User 424242 does not exist',
      ],
      [
        'unknown user (copy)',
        'post',
        '/api/user/424242/copy',
        { username: 'copy9', realName: 'C', password: '123456' },
        404,
        'USER_NOT_FOUND',
        'User 424242 does not exist',
      ],
      [
        'non-numeric id',
        'get',
        '/api/user/abc',
        undefined,
        400,
        'VALIDATION_FAILED',
        'Validation failed: id: must be a whole number written in decimal digits',
      ],
      [
        'zero id',
        'get',
        '/api/user/0',
        undefined,
        400,
        'VALIDATION_FAILED',
        'Validation failed: id: Number must be greater than or equal to 1',
      ],
      [
        'hexadecimal id (not read as 16)',
        'get',
        '/api/user/0x10',
        undefined,
        400,
        'VALIDATION_FAILED',
        'Validation failed: id: must be a whole number written in decimal digits',
      ],
      [
        'huge id',
        'get',
        '/api/user/99999999999999999999',
        undefined,
        400,
        'VALIDATION_FAILED',
        /id: Number must be less than or equal to/,
      ],
      [
        'page 0, size 1000',
        'get',
        '/api/user/page/0/size/1000',
        undefined,
        400,
        'VALIDATION_FAILED',
        'Validation failed: page: Number must be greater than or equal to 1; size: Number must be less than or equal to 500',
      ],
      [
        'bad enabled filter',
        'get',
        '/api/user/page/1/size/10?enabled=maybe',
        undefined,
        400,
        'VALIDATION_FAILED',
        /enabled: Invalid enum value/,
      ],
      [
        'enabled not boolean',
        'put',
        '/api/user/1/enabled',
        { enabled: 'no' },
        400,
        'VALIDATION_FAILED',
        'Validation failed: enabled: Expected boolean, received string',
      ],
      [
        'reset password too short',
        'post',
        '/api/user/1/resetPassword',
        { password: '1' },
        400,
        'VALIDATION_FAILED',
        'Validation failed: password: Password must have at least 6 characters',
      ],
      [
        'roles not an array',
        'put',
        '/api/user/1/roles',
        { roleIds: 3 },
        400,
        'VALIDATION_FAILED',
        'Validation failed: roleIds: Expected array, received number',
      ],
      [
        'copy to a taken name',
        'post',
        '/api/user/1/copy',
        { username: 'operator', realName: 'C', password: '123456' },
        409,
        'USER_USERNAME_TAKEN',
        "User name 'operator' is already taken",
      ],
      [
        'change own password: missing',
        'put',
        '/user/password',
        {},
        400,
        'VALIDATION_FAILED',
        'Validation failed: oldPassword: Required; newPassword: Required',
      ],
    ];
    it.each(failures)('%s (%s %s)', async (_name, method, path, body, status, code, message) => {
      const res = await as(admin, method, path, body).expect(status);
      const error = errorOf(res.body, code);
      if (typeof message === 'string') expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    });

    it('an administrator cannot delete or disable their own account', async () => {
      const me = (await as(admin, 'get', '/user/getUserExt').expect(200)).body as { userId: number };
      expect(
        errorOf(
          (await as(admin, 'delete', `/api/user/${me.userId}`).expect(422)).body,
          'USER_CANNOT_MODIFY_SELF',
        ).message,
      ).toBe('You cannot delete your own account');
      errorOf(
        (await as(admin, 'put', `/api/user/${me.userId}/enabled`, { enabled: false }).expect(422)).body,
        'USER_CANNOT_MODIFY_SELF',
      );
    });
  });

  describe('data scope by organisation', () => {
    let clerk: SessionTokens | undefined;
    /** A Fuzhou (FZ) clerk who may read users and organisations; their role has no data authorisation. */
    async function fzClerk(): Promise<SessionTokens> {
      if (clerk) return clerk;
      const roleId = await insertRole(t.db.dataSource, 'fz_clerk', [
        'sys',
        'sys:user',
        'sys:user:query',
        'sys:org',
        'sys:org:query',
      ]);
      await as(admin, 'post', '/api/user', {
        username: 'clerk',
        password: '123456',
        realName: 'Clerk',
        organizationId: orgs['FZ'],
        roleIds: [roleId],
      }).expect(201);
      clerk = await t.login('clerk', '123456');
      return clerk;
    }

    it('a user whose roles have no data authorisation sees only their own organisation subtree', async () => {
      await as(admin, 'post', '/api/user', {
        username: 'fz.north',
        password: '123456',
        realName: 'North',
        organizationId: orgs['FZ-N'],
      }).expect(201);
      const hf = (
        await as(admin, 'post', '/api/user', {
          username: 'hf.driver',
          password: '123456',
          realName: 'HF',
          organizationId: orgs['HF'],
        }).expect(201)
      ).body as UserView;
      const fleet = await fzClerk();

      const page = (await as(fleet, 'get', '/api/user/page/1/size/100').expect(200))
        .body as GridPage<UserView>;
      const names = page.list.map((u) => u.username);
      expect(names).toEqual(expect.arrayContaining(['clerk', 'operator', 'fz.north']));
      expect(names).not.toContain('hf.driver');
      expect(names).not.toContain('admin');
      expect(page.list.every((u) => [orgs['FZ'], orgs['FZ-N']].includes(u.organizationId))).toBe(true);
      expect(page.total).toBe(page.list.length);

      // Another organisation's user looks non-existent.
      errorOf((await as(fleet, 'get', `/api/user/${hf.id}`).expect(404)).body, 'USER_NOT_FOUND');
      const tree = (await as(fleet, 'get', '/api/organization/tree').expect(200)).body as OrganizationNode[];
      expect(tree.map((n) => n.code)).toEqual(['FZ']);
      expect(tree[0].children.map((n) => n.code)).toEqual(['FZ-N']);
      expect((await as(fleet, 'get', '/user/getUserExt').expect(200)).body.dataScopeOrganizationIds).toEqual([
        orgs['FZ'],
      ]);
    });

    it('an operator (data authorisation: the root) sees every organisation', async () => {
      const operator = await t.login('operator', DEMO_PASSWORD);
      const page = (await as(operator, 'get', '/api/user/page/1/size/100').expect(200))
        .body as GridPage<UserView>;
      expect(page.list.map((u) => u.username)).toEqual(
        expect.arrayContaining(['admin', 'hf.driver', 'fz.north']),
      );
    });

    it('data authorisation of a role changes what its users see; granting outside the own scope is refused', async () => {
      const role = (
        await as(admin, 'post', '/api/role', { code: 'hf_viewer', name: 'HF viewer' }).expect(201)
      ).body as RoleView;
      const userRoleQuery = 'sys:user:query';
      const tree = (await as(admin, 'get', '/api/resource/tree').expect(200)).body as {
        id: number;
        code: string;
        children: unknown[];
      }[];
      const flat: { id: number; code: string }[] = [];
      const walk = (nodes: { id: number; code: string; children: unknown[] }[]) =>
        nodes.forEach((n) => (flat.push(n), walk(n.children as typeof nodes)));
      walk(tree);
      const queryId = flat.find((r) => r.code === userRoleQuery)!.id;
      await as(admin, 'put', `/api/role/${role.id}/resources`, { resourceIds: [queryId] }).expect(200);
      await as(admin, 'put', `/api/role/${role.id}/organizations`, { organizationIds: [orgs['HF']] }).expect(
        200,
      );
      await as(admin, 'post', '/api/user', {
        username: 'viewer',
        password: '123456',
        realName: 'V',
        organizationId: orgs['FZ'],
        roleIds: [role.id],
      }).expect(201);
      const viewer = await t.login('viewer', '123456');
      const page = (await as(viewer, 'get', '/api/user/page/1/size/100').expect(200))
        .body as GridPage<UserView>;
      expect(page.list.length).toBeGreaterThan(0);
      expect(page.list.every((u) => u.organizationId === orgs['HF'])).toBe(true);

      // With the right to add users, the HF-scoped viewer still cannot place one outside HF.
      const addId = flat.find((r) => r.code === 'sys:user:add')!.id;
      await as(admin, 'put', `/api/role/${role.id}/resources`, { resourceIds: [queryId, addId] }).expect(200);
      const outside = await as(viewer, 'post', '/api/user', {
        username: 'sneaky',
        password: '123456',
        realName: 'S',
        organizationId: orgs['FZ'],
      }).expect(403);
      expect(errorOf(outside.body, 'ORGANIZATION_OUT_OF_SCOPE').message).toBe(
        `Organization ${orgs['FZ']} is outside your data scope`,
      );
      await as(viewer, 'post', '/api/user', {
        username: 'inside',
        password: '123456',
        realName: 'I',
        organizationId: orgs['HF'],
      }).expect(201);
      errorOf((await as(viewer, 'get', '/api/organization/tree').expect(403)).body, 'FORBIDDEN');
    });

    it('an admin-created organisation moves with its subtree, and cycles are refused', async () => {
      const a = (
        await as(admin, 'post', '/api/organization', {
          parentId: orgs['FZ'],
          code: 'FZ-A',
          name: 'A',
        }).expect(201)
      ).body as OrganizationNode;
      const b = (
        await as(admin, 'post', '/api/organization', { parentId: a.id, code: 'FZ-A-B', name: 'B' }).expect(
          201,
        )
      ).body as OrganizationNode;
      errorOf(
        (await as(admin, 'put', `/api/organization/${a.id}`, { parentId: b.id }).expect(422)).body,
        'ORGANIZATION_CYCLE',
      );
      await as(admin, 'put', `/api/organization/${a.id}`, { parentId: orgs['HF'] }).expect(200);
      await as(admin, 'post', '/api/user', {
        username: 'b.user',
        password: '123456',
        realName: 'B',
        organizationId: b.id,
      }).expect(201);
      // The FZ clerk no longer sees B's user; the HF role viewer does.
      const fleet = await fzClerk();
      const names = (
        (await as(fleet, 'get', '/api/user/page/1/size/100').expect(200)).body as GridPage<UserView>
      ).list.map((u) => u.username);
      expect(names).not.toContain('b.user');
      const viewer = await t.login('viewer', '123456');
      const seen = (
        (await as(viewer, 'get', '/api/user/page/1/size/100').expect(200)).body as GridPage<UserView>
      ).list.map((u) => u.username);
      expect(seen).toContain('b.user');
      errorOf(
        (await as(admin, 'delete', `/api/organization/${a.id}`).expect(409)).body,
        'ORGANIZATION_NOT_EMPTY',
      );
    });
  });

  describe('roles, organisations, resources, dictionaries: failure tables', () => {
    const failures: FailureCase[] = [
      [
        'role: missing fields',
        'post',
        '/api/role',
        {},
        400,
        'VALIDATION_FAILED',
        'Validation failed: code: Required; name: Required',
      ],
      [
        'role: bad code',
        'post',
        '/api/role',
        { code: 'has space', name: 'X' },
        400,
        'VALIDATION_FAILED',
        'Validation failed: code: Only letters, digits and _ : . - are allowed',
      ],
      [
        'role: too long',
        'post',
        '/api/role',
        { code: 'c'.repeat(65), name: 'n'.repeat(65) },
        400,
        'VALIDATION_FAILED',
        /code: String must contain at most 64 character\(s\); name: String must contain at most 64/,
      ],
      [
        'role: duplicate code',
        'post',
        '/api/role',
        { code: 'operator', name: 'Again' },
        409,
        'ROLE_CODE_TAKEN',
        "Role code 'operator' is already taken",
      ],
      [
        'role: unknown',
        'get',
        '/api/role/424242',
        undefined,
        404,
        'ROLE_NOT_FOUND',
        'Role 424242 does not exist',
      ],
      [
        'role: unknown (put)',
        'put',
        '/api/role/424242',
        { name: 'X' },
        404,
        'ROLE_NOT_FOUND',
        'Role 424242 does not exist',
      ],
      [
        'role: unknown resources',
        'put',
        '/api/role/1/resources',
        { resourceIds: [424242] },
        404,
        'RESOURCE_NOT_FOUND',
        'Resource 424242 does not exist',
      ],
      [
        'role: resources of bad type',
        'put',
        '/api/role/1/resources',
        { resourceIds: ['1'] },
        400,
        'VALIDATION_FAILED',
        'Validation failed: resourceIds.0: Expected number, received string',
      ],
      [
        'role: unknown organisations',
        'put',
        '/api/role/1/organizations',
        { organizationIds: [424242] },
        404,
        'ORGANIZATION_NOT_FOUND',
        'Organization 424242 does not exist',
      ],
      [
        'role: delete built-in',
        'delete',
        '/api/role/1',
        undefined,
        422,
        'ROLE_BUILTIN',
        "Built-in role 'admin' cannot be deleted",
      ],
      [
        'role: rename built-in code',
        'put',
        '/api/role/1',
        { code: 'root' },
        422,
        'ROLE_BUILTIN',
        "The code of built-in role 'admin' cannot change",
      ],
      [
        'org: missing fields',
        'post',
        '/api/organization',
        {},
        400,
        'VALIDATION_FAILED',
        'Validation failed: parentId: Required; code: Required; name: Required',
      ],
      [
        'org: duplicate code',
        'post',
        '/api/organization',
        { parentId: 1, code: 'FZ', name: 'Again' },
        409,
        'ORGANIZATION_CODE_TAKEN',
        "Organization code 'FZ' is already taken",
      ],
      [
        'org: unknown parent',
        'post',
        '/api/organization',
        { parentId: 424242, code: 'NEW', name: 'New' },
        404,
        'ORGANIZATION_NOT_FOUND',
        'Organization 424242 does not exist',
      ],
      [
        'org: unknown',
        'delete',
        '/api/organization/424242',
        undefined,
        404,
        'ORGANIZATION_NOT_FOUND',
        'Organization 424242 does not exist',
      ],
      [
        'org: delete non-empty',
        'delete',
        '/api/organization/1',
        undefined,
        409,
        'ORGANIZATION_NOT_EMPTY',
        'The organization still has sub-organizations or users',
      ],
      [
        'org: move the root',
        'put',
        '/api/organization/1',
        { parentId: 2 },
        422,
        'ORGANIZATION_CYCLE',
        'The root organization cannot be moved',
      ],
      [
        'resource: missing fields',
        'post',
        '/api/resource',
        {},
        400,
        'VALIDATION_FAILED',
        'Validation failed: type: Required; code: Required; name: Required',
      ],
      [
        'resource: bad type',
        'post',
        '/api/resource',
        { type: 'page', code: 'x', name: 'X' },
        400,
        'VALIDATION_FAILED',
        "Validation failed: type: Invalid enum value. Expected 'menu' | 'button', received 'page'",
      ],
      [
        'resource: duplicate code',
        'post',
        '/api/resource',
        { type: 'button', code: 'go_screen', name: 'X', parentId: 1 },
        409,
        'RESOURCE_CODE_TAKEN',
        "Resource code 'go_screen' is already taken",
      ],
      [
        'resource: button without parent',
        'post',
        '/api/resource',
        { type: 'button', code: 'orphan_btn', name: 'X' },
        422,
        'RESOURCE_BAD_PARENT',
        'A button must belong to a menu',
      ],
      [
        'resource: unknown parent',
        'post',
        '/api/resource',
        { type: 'menu', code: 'm_x', name: 'X', parentId: 424242 },
        404,
        'RESOURCE_NOT_FOUND',
        'Resource 424242 does not exist',
      ],
      [
        'resource: unknown',
        'put',
        '/api/resource/424242',
        { name: 'X' },
        404,
        'RESOURCE_NOT_FOUND',
        'Resource 424242 does not exist',
      ],
      [
        'resource: delete with children',
        'delete',
        '/api/resource/1',
        undefined,
        409,
        'RESOURCE_HAS_CHILDREN',
        'Delete the child resources first',
      ],
      [
        'dict: missing fields',
        'post',
        '/api/dict',
        {},
        400,
        'VALIDATION_FAILED',
        'Validation failed: code: Required; name: Required',
      ],
      [
        'dict: duplicate type',
        'post',
        '/api/dict',
        { code: 'message_type', name: 'Again' },
        409,
        'DICT_CODE_TAKEN',
        "Dictionary type 'message_type' already exists",
      ],
      [
        'dict: unknown parent',
        'post',
        '/api/dict',
        { parentId: 424242, code: 'x', name: 'X' },
        404,
        'DICT_NOT_FOUND',
        'Dictionary entry 424242 does not exist',
      ],
      [
        'dict: unknown type',
        'get',
        '/api/dict/type/no_such_type',
        undefined,
        404,
        'DICT_NOT_FOUND',
        "Dictionary type 'no_such_type' does not exist",
      ],
      [
        'dict: delete type with items',
        'delete',
        '/api/dict/1',
        undefined,
        409,
        'DICT_HAS_CHILDREN',
        'Delete the items of this type first',
      ],
      [
        'dict: unknown (put)',
        'put',
        '/api/dict/424242',
        { name: 'X' },
        404,
        'DICT_NOT_FOUND',
        'Dictionary entry 424242 does not exist',
      ],
      [
        'config: bad logo-title mode',
        'put',
        '/api/platformConfig/logoTitleMode',
        { configValue: '4' },
        422,
        'CONFIG_VALUE_INVALID',
        "Setting 'logoTitleMode' must be '1', '2' or '3'",
      ],
      [
        'config: bad city code',
        'put',
        '/api/platformConfig/cityCode',
        { configValue: 'paris' },
        422,
        'CONFIG_VALUE_INVALID',
        "Setting 'cityCode' must be 'fz', 'hefei' or 'tm166'",
      ],
      [
        'config: bad system list',
        'put',
        '/api/platformConfig/systemList',
        { configValue: '{"a":1}' },
        422,
        'CONFIG_VALUE_INVALID',
        /must be a JSON array/,
      ],
      [
        'config: unknown key',
        'put',
        '/api/platformConfig/nope',
        { configValue: '1' },
        404,
        'CONFIG_NOT_FOUND',
        "Setting 'nope' does not exist",
      ],
      [
        'config: missing value',
        'put',
        '/api/platformConfig/cityCode',
        {},
        400,
        'VALIDATION_FAILED',
        'Validation failed: configValue: Required',
      ],
      [
        'config: delete built-in',
        'delete',
        '/api/platformConfig/cityCode',
        undefined,
        422,
        'CONFIG_BUILTIN',
        "Built-in setting 'cityCode' cannot be deleted",
      ],
      [
        'config: duplicate key',
        'post',
        '/api/platformConfig',
        { configKey: 'cityCode', configValue: 'x', category: 'system' },
        409,
        'CONFIG_KEY_TAKEN',
        "Setting 'cityCode' already exists",
      ],
      [
        'config: platform category not creatable',
        'post',
        '/api/platformConfig',
        { configKey: 'k', configValue: 'x', category: 'platform' },
        400,
        'VALIDATION_FAILED',
        /category: Invalid enum value/,
      ],
      [
        'favourite: missing fields',
        'post',
        '/favorite/',
        {},
        400,
        'VALIDATION_FAILED',
        'Validation failed: bId: Required; bType: Required; name: Required',
      ],
      [
        'favourite: unknown',
        'delete',
        '/favorite/424242',
        undefined,
        404,
        'FAVORITE_NOT_FOUND',
        'Favourite 424242 does not exist',
      ],
      [
        'log: bad date',
        'get',
        '/api/operationLog/page/1/size/10?start=yesterday',
        undefined,
        400,
        'VALIDATION_FAILED',
        'Validation failed: start: Expected a date-time (YYYY-MM-DD HH:mm:ss)',
      ],
    ];
    it.each(failures)('%s (%s %s)', async (_name, method, path, body, status, code, message) => {
      const res = await as(admin, method, path, body).expect(status);
      const error = errorOf(res.body, code);
      if (typeof message === 'string') expect(error.message).toBe(message);
      else expect(error.message).toMatch(message);
    });

    it('roles CRUD, and a role in use cannot be deleted', async () => {
      const role = (
        await as(admin, 'post', '/api/role', {
          code: 'night_shift',
          name: 'Night shift',
          description: 'x',
        }).expect(201)
      ).body as RoleView;
      expect(
        (
          await as(admin, 'put', `/api/role/${role.id}`, { name: 'Night crew', description: null }).expect(
            200,
          )
        ).body,
      ).toMatchObject({
        name: 'Night crew',
        description: null,
        builtin: false,
      });
      await as(admin, 'post', '/api/user', {
        username: 'night1',
        password: '123456',
        realName: 'N',
        organizationId: orgs['FZ'],
        roleIds: [role.id],
      }).expect(201);
      errorOf((await as(admin, 'delete', `/api/role/${role.id}`).expect(409)).body, 'ROLE_IN_USE');
      const page = (await as(admin, 'get', '/api/role/page/1/size/2').expect(200)).body as GridPage<RoleView>;
      expect(page.list).toHaveLength(2);
      expect(page.total).toBeGreaterThanOrEqual(5);
    });

    it('the resource tree holds the spec’s menu areas and the go_screen button on the global menu', async () => {
      const tree = (await as(admin, 'get', '/api/resource/tree').expect(200)).body as {
        code: string;
        type: string;
        children: { code: string; type: string }[];
      }[];
      const codes = tree.map((n) => n.code);
      for (const area of [
        'home',
        'appManage',
        'basic',
        'coupon',
        'dataMining',
        'iccard',
        'issue',
        'msg',
        'operation',
        'parking',
        'report',
        'station',
        'sys',
        'tb',
        'warn',
      ]) {
        expect(codes).toContain(area);
      }
      const global = tree.find((n) => n.code === 'global')!;
      expect(global.children).toEqual([expect.objectContaining({ code: 'go_screen', type: 'button' })]);
    });

    it('dictionaries: every enumeration is seeded, items come in order, and items can be added', async () => {
      const types = (await as(admin, 'get', '/api/dict/tree').expect(200)).body as DictNode[];
      const codes = types.map((d) => d.code);
      for (const code of [
        'message_type',
        'channel_type',
        'alert_level',
        'group_type',
        'frequency',
        'station_type',
        'start_type',
        'connector_type',
        'city_code',
        'account_check_category',
      ]) {
        expect(codes).toContain(code);
      }
      const start = (await as(admin, 'get', '/api/dict/type/start_type').expect(200)).body as DictNode[];
      expect(start.map((i) => [i.value, i.name])).toEqual([
        ['0', 'Until full'],
        ['1', 'By time'],
        ['2', 'By percent'],
        ['3', 'By amount'],
        ['4', 'By energy'],
      ]);
      const type = types.find((d) => d.code === 'message_type')!;
      await as(admin, 'post', '/api/dict', { parentId: type.id, code: '3', name: 'SMS link' }).expect(201);
      errorOf(
        (await as(admin, 'post', '/api/dict', { parentId: type.id, code: '3', name: 'Again' }).expect(409))
          .body,
        'DICT_CODE_TAKEN',
      );
      const item = (
        (await as(admin, 'get', '/api/dict/type/message_type').expect(200)).body as DictNode[]
      ).find((i) => i.code === '3')!;
      errorOf(
        (await as(admin, 'post', '/api/dict', { parentId: item.id, code: 'x', name: 'X' }).expect(422)).body,
        'DICT_BAD_PARENT',
      );
      await as(admin, 'put', `/api/dict/${item.id}`, { enabled: false }).expect(200);
      expect(
        ((await as(admin, 'get', '/api/dict/type/message_type').expect(200)).body as DictNode[]).map(
          (i) => i.code,
        ),
      ).toEqual(['0', '1', '2']);
    });
  });

  describe('current user, favourites and logs', () => {
    it('currentuser/info returns roles, permissions (go_screen for admin) and the menu tree', async () => {
      const info = (await as(admin, 'get', '/authority/users/currentuser/info').expect(200)).body;
      expect(info).toMatchObject({
        username: 'admin',
        organizationName: 'Voltdepot Group',
        roles: [{ code: 'admin', name: 'Administrator' }],
      });
      expect(info.permissions).toEqual(expect.arrayContaining(['go_screen', 'sys:user:add']));
      const maintainer = await t.login('maintainer', DEMO_PASSWORD);
      const m = (await as(maintainer, 'get', '/authority/users/currentuser/info').expect(200)).body;
      expect(m.permissions).not.toContain('go_screen');
      expect(m.menus.map((n: { code: string }) => n.code)).toEqual([
        'home',
        'welcome',
        'basic',
        'equipment',
        'issue',
        'operation', // station and pile monitoring
        'station',
        'warn',
      ]);
      expect(
        (await as(maintainer, 'get', '/authority/users/currentuser/permissions').expect(200)).body,
      ).toEqual(m.permissions);
    });

    it('favourites: add (number or string bId), list, duplicate, delete; only the own ones', async () => {
      const fav = (
        await as(admin, 'post', '/favorite/', { bId: 17, bType: 'station', name: 'Depot 17' }).expect(201)
      ).body;
      expect(fav).toMatchObject({ bId: '17', bType: 'station', name: 'Depot 17' });
      errorOf(
        (await as(admin, 'post', '/favorite/', { bId: '17', bType: 'station', name: 'Again' }).expect(409))
          .body,
        'FAVORITE_EXISTS',
      );
      expect((await as(admin, 'get', '/favorite/').expect(200)).body).toEqual([fav]);
      const operator = await t.login('operator', DEMO_PASSWORD);
      errorOf((await as(operator, 'delete', `/favorite/${fav.id}`).expect(404)).body, 'FAVORITE_NOT_FOUND');
      await as(admin, 'delete', `/favorite/${fav.id}`).expect(204);
      expect((await as(admin, 'get', '/favorite/').expect(200)).body).toEqual([]);
    });

    it('every mutating request lands in the operation log with who, what, where and result', async () => {
      await as(admin, 'post', '/api/role', { code: 'logged_role', name: 'Logged' }).expect(201);
      const fleet = await t.login('fleet', DEMO_PASSWORD);
      await as(fleet, 'post', '/api/role', { code: 'denied_role', name: 'Denied' }).expect(403);
      const entries = await eventually(async () => {
        const page = (
          await as(admin, 'get', '/api/operationLog/page/1/size/100').query({ path: '/api/role' }).expect(200)
        ).body;
        expect(page.list.length).toBeGreaterThanOrEqual(2);
        return page.list as {
          username: string;
          method: string;
          route: string;
          status: number;
          success: boolean;
          ip: string;
        }[];
      });
      expect(entries).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            username: 'admin',
            method: 'POST',
            route: '/api/role',
            status: 201,
            success: true,
            ip: expect.any(String),
          }),
          expect.objectContaining({ username: 'fleet', method: 'POST', status: 403, success: false }),
        ]),
      );
      const exported = await as(admin, 'get', '/api/operationLog/export')
        .query({ lang: 'en-US', path: '/api/role' })
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      expect(exported.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(exported.headers['content-disposition']).toBe(
        `attachment; filename="operation-log.xlsx"; filename*=UTF-8''operation-log.xlsx`,
      );
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(exported.body as ArrayBuffer);
      const sheet = book.getWorksheet('operation-log')!;
      expect(sheet.getRow(1).values).toEqual([
        undefined,
        'Time',
        'User',
        'Method',
        'Path',
        'Status',
        'Result',
        'Address',
        'Duration (ms)',
      ]);
      expect(sheet.rowCount).toBeGreaterThanOrEqual(3);

      const failed = (
        await as(admin, 'get', '/api/operationLog/page/1/size/100')
          .query({ success: 'false', username: 'fleet' })
          .expect(200)
      ).body;
      expect(failed.list.every((e: { success: boolean }) => !e.success)).toBe(true);
    });
  });
});
