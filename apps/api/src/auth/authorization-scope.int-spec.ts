import { insertRole, organizationId } from '@voltdepot/server-testing';
import type { OrganizationNode, ResourceNode, UserView } from '@voltdepot/server-identity';
import {
  ADMIN_PASSWORD,
  ApiTestApp,
  bearer,
  DEMO_PASSWORD,
  errorOf,
  startApiTestApp,
} from '../fixtures/api-test-app';

/**
 * The demo users of the seeded roles and the organisation subtrees their data scope covers (docs), and a
 * Fuzhou clerk made here: no seeded role reads users within part of the tree only.
 */
const USERS = ['admin', 'operator', 'maintainer', 'fleet', 'clerk'] as const;
type Who = (typeof USERS)[number];
/** Records are made in Hefei (HF) and in Fuzhou North Yard (FZ-N, below Fuzhou FZ). */
const PLACES = ['HF', 'FZ-N'] as const;
type Place = (typeof PLACES)[number];
const SEES: Record<Who, readonly Place[]> = {
  admin: ['HF', 'FZ-N'], // Voltdepot Group: everything
  operator: ['HF', 'FZ-N'], // the role's data authorisation is the root
  maintainer: ['HF'], // the role sees Hefei
  fleet: ['HF'], // no data authorisation: own organisation (the Hefei depot) and below
  clerk: ['FZ-N'], // no data authorisation: own organisation (Fuzhou) and below
};
const CLERK_PERMISSIONS = [
  'sys:user:query',
  'sys:user:edit',
  'sys:user:enable',
  'sys:user:resetPassword',
  'sys:user:role',
];

type Area = 'user' | 'company' | 'branch';
type RecordRoute = {
  route: string;
  area: Area;
  permission: string;
  /** Body sent (the record's own values where the route writes, so an allowed call changes nothing). */
  body?: (place: Place) => object;
  allowed: number;
  /** Destructive: only the refusals are exercised. */
  denyOnly?: boolean;
};

const companyBody = (place: Place) => ({ number: `C-${place}`, name: `Company ${place}` });

/** Every route that takes the id of an organisation-scoped record, for the areas that apply data scope. */
const RECORD_ROUTES: RecordRoute[] = [
  { route: 'GET /api/user/:id', area: 'user', permission: 'sys:user:query', allowed: 200 },
  {
    route: 'PUT /api/user/:id',
    area: 'user',
    permission: 'sys:user:edit',
    body: (place) => ({ realName: `Scoped ${place}` }),
    allowed: 200,
  },
  {
    route: 'PUT /api/user/:id/enabled',
    area: 'user',
    permission: 'sys:user:enable',
    body: () => ({ enabled: true }),
    allowed: 200,
  },
  {
    route: 'POST /api/user/:id/resetPassword',
    area: 'user',
    permission: 'sys:user:resetPassword',
    body: () => ({ password: 'Secret123' }),
    allowed: 204,
  },
  { route: 'DELETE /api/user/:id/totp', area: 'user', permission: 'sys:user:resetPassword', allowed: 204 },
  { route: 'GET /api/user/:id/roles', area: 'user', permission: 'sys:user:role', allowed: 200 },
  {
    route: 'PUT /api/user/:id/roles',
    area: 'user',
    permission: 'sys:user:role',
    body: () => ({ roleIds: [] }),
    allowed: 200,
  },
  {
    route: 'POST /api/user/:id/copy',
    area: 'user',
    permission: 'sys:user:copy',
    body: () => ({ username: 'never.copied', realName: 'Copy', password: 'Secret123' }),
    allowed: 201,
    denyOnly: true,
  },
  {
    route: 'DELETE /api/user/:id',
    area: 'user',
    permission: 'sys:user:delete',
    allowed: 204,
    denyOnly: true,
  },
  { route: 'GET /api/company/:id', area: 'company', permission: 'basic:company:query', allowed: 200 },
  {
    route: 'PUT /api/company/:id',
    area: 'company',
    permission: 'basic:company:edit',
    body: companyBody,
    allowed: 200,
  },
  {
    route: 'DELETE /api/company/:id',
    area: 'company',
    permission: 'basic:company:delete',
    allowed: 204,
    denyOnly: true,
  },
  { route: 'GET /api/branch/:id', area: 'branch', permission: 'basic:branch:query', allowed: 200 },
  {
    route: 'PUT /api/branch/:id',
    area: 'branch',
    permission: 'basic:branch:edit',
    body: (place) => ({ companyId: ids.company[place], number: `B-${place}`, name: `Branch ${place}` }),
    allowed: 200,
  },
  {
    route: 'DELETE /api/branch/:id',
    area: 'branch',
    permission: 'basic:branch:delete',
    allowed: 204,
    denyOnly: true,
  },
];

/** What an area answers for a record outside the caller's scope: as if it did not exist. */
const NOT_VISIBLE: Record<Area, (id: number) => { code: string; message: string }> = {
  user: (id) => ({ code: 'USER_NOT_FOUND', message: `User ${id} does not exist` }),
  company: (id) => ({ code: 'ASSET_NOT_FOUND', message: `Company ${id} does not exist` }),
  branch: (id) => ({ code: 'ASSET_NOT_FOUND', message: `Branch ${id} does not exist` }),
};

const ids: Record<Area, Record<Place, number>> = {
  user: { HF: 0, 'FZ-N': 0 },
  company: { HF: 0, 'FZ-N': 0 },
  branch: { HF: 0, 'FZ-N': 0 },
};

describe('authorisation: own versus other organisation (data scope) x every seeded role', () => {
  let t: ApiTestApp;
  const tokens: Partial<Record<Who, string>> = {};
  const granted: Partial<Record<Who, Set<string>>> = {};

  beforeAll(async () => {
    t = await startApiTestApp();
    const clerkRole = await insertRole(t.db.dataSource, 'fz_clerk', CLERK_PERMISSIONS);
    await t
      .http()
      .post('/api/user')
      .set(bearer((await t.login('admin', ADMIN_PASSWORD)).accessToken))
      .send({
        username: 'clerk',
        password: 'Secret123',
        realName: 'Clerk',
        organizationId: await organizationId(t.db.dataSource, 'FZ'),
        roleIds: [clerkRole],
      })
      .expect(201);
    const passwords: Record<Who, string> = {
      admin: ADMIN_PASSWORD,
      operator: DEMO_PASSWORD,
      maintainer: DEMO_PASSWORD,
      fleet: DEMO_PASSWORD,
      clerk: 'Secret123',
    };
    for (const who of USERS) {
      tokens[who] = (await t.login(who, passwords[who])).accessToken;
      const rows = (await t.db.dataSource.query(
        `SELECT DISTINCT s.code FROM sys_user u
           JOIN sys_user_role ur ON ur.user_id = u.id
           JOIN sys_role_resource rr ON rr.role_id = ur.role_id
           JOIN sys_resource s ON s.id = rr.resource_id WHERE u.username = $1`,
        [who],
      )) as { code: string }[];
      granted[who] = new Set(rows.map((r) => r.code));
    }
    const admin = tokens.admin!;
    for (const place of PLACES) {
      const [{ id: organizationId }] = (await t.db.dataSource.query(
        `SELECT id::int AS id FROM sys_organization WHERE code = $1`,
        [place],
      )) as { id: number }[];
      const user = await t
        .http()
        .post('/api/user')
        .set(bearer(admin))
        .send({
          username: `scoped.${place}`,
          password: 'Secret123',
          realName: `Scoped ${place}`,
          organizationId,
        })
        .expect(201);
      ids.user[place] = (user.body as UserView).id;
      const company = await t
        .http()
        .post('/api/company')
        .set(bearer(admin))
        .send({ ...companyBody(place), organizationId })
        .expect(201);
      ids.company[place] = (company.body as { id: number }).id;
      const branch = await t
        .http()
        .post('/api/branch')
        .set(bearer(admin))
        .send({ companyId: ids.company[place], number: `B-${place}`, name: `Branch ${place}` })
        .expect(201);
      ids.branch[place] = (branch.body as { id: number }).id;
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const cases = RECORD_ROUTES.flatMap((r) =>
    USERS.flatMap((who) =>
      PLACES.filter((place) => !(r.denyOnly && SEES[who].includes(place))).map(
        (place) => [r.route, who, place, r] as const,
      ),
    ),
  );

  it.each(cases)('%s as %s on a record in %s', async (_route, who, place, r) => {
    const [method, template] = r.route.split(' ');
    const id = ids[r.area][place];
    const client = t.http();
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    let req = client[verb](template.replace(':id', String(id))).set(bearer(tokens[who]!));
    if (r.body !== undefined) req = req.send(r.body(place));
    const res = await req;

    if (!granted[who]!.has(r.permission)) {
      expect(res.status).toBe(403);
      expect(errorOf(res.body, 'FORBIDDEN').message).toBe(`Missing permission: ${r.permission}`);
    } else if (SEES[who].includes(place)) {
      expect({ status: res.status, body: res.body }).toEqual({ status: r.allowed, body: expect.anything() });
    } else {
      const expected = NOT_VISIBLE[r.area](id);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 404,
        body: { ...expected, correlationId: expect.any(String) },
      });
    }
  });

  it('the matrix exercises both answers: some role is allowed and some refused for each area', () => {
    for (const area of ['user', 'company', 'branch'] as const) {
      const routes = RECORD_ROUTES.filter((r) => r.area === area && !r.denyOnly);
      const allowedSomewhere = routes.some((r) =>
        USERS.some((who) => granted[who]!.has(r.permission) && SEES[who].length < PLACES.length),
      );
      expect({ area, allowedSomewhere }).toEqual({ area, allowedSomewhere: true });
    }
  });
});

describe('role dialogs get their trees under the dialog’s own permission', () => {
  let t: ApiTestApp;
  let admin: string;
  let roleId: number;

  /** A user in Fuzhou (FZ) holding a new role with exactly these permission codes. */
  const userWith = async (username: string, codes: string[]): Promise<string> => {
    const role = await insertRole(t.db.dataSource, `${username}_role`, codes);
    await t
      .http()
      .post('/api/user')
      .set(bearer(admin))
      .send({
        username,
        password: 'Secret123',
        realName: username,
        organizationId: await organizationId(t.db.dataSource, 'FZ'),
        roleIds: [role],
      })
      .expect(201);
    return (await t.login(username, 'Secret123')).accessToken;
  };

  beforeAll(async () => {
    t = await startApiTestApp();
    admin = (await t.login('admin', ADMIN_PASSWORD)).accessToken;
    const [row] = (await t.db.dataSource.query(
      `SELECT id::int AS id FROM sys_role WHERE code = 'operator'`,
    )) as {
      id: number;
    }[];
    roleId = row.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const codesOf = (nodes: { code: string; children: unknown[] }[]): string[] =>
    nodes.flatMap((n) => [n.code, ...codesOf(n.children as { code: string; children: unknown[] }[])]);

  it('menu authorisation: GET /api/role/{id}/resources answers the ids and the whole resource tree', async () => {
    const token = await userWith('menu.auth.only', ['sys:role', 'sys:role:query', 'sys:role:menuAuth']);
    errorOf((await t.http().get('/api/resource/tree').set(bearer(token)).expect(403)).body, 'FORBIDDEN');
    const res = await t.http().get(`/api/role/${roleId}/resources`).set(bearer(token)).expect(200);
    const body = res.body as { resourceIds: number[]; tree: ResourceNode[] };
    const full = (await t.http().get('/api/resource/tree').set(bearer(admin)).expect(200))
      .body as ResourceNode[];
    expect(body.tree).toEqual(full);
    expect(codesOf(body.tree)).toEqual(expect.arrayContaining(['sys:role:menuAuth', 'go_screen']));
    const [{ count }] = (await t.db.dataSource.query(
      `SELECT count(*)::int AS count FROM sys_role_resource WHERE role_id = $1`,
      [roleId],
    )) as { count: number }[];
    expect(body.resourceIds).toHaveLength(count);
  });

  it('data authorisation: GET /api/role/{id}/organizations answers the roots and the caller’s subtrees', async () => {
    const token = await userWith('data.auth.only', ['sys:role', 'sys:role:query', 'sys:role:dataAuth']);
    errorOf((await t.http().get('/api/organization/tree').set(bearer(token)).expect(403)).body, 'FORBIDDEN');
    const res = await t.http().get(`/api/role/${roleId}/organizations`).set(bearer(token)).expect(200);
    const body = res.body as { organizationIds: number[]; tree: OrganizationNode[] };
    // The caller (Fuzhou, no data authorisation) chooses only inside Fuzhou's subtree.
    expect(codesOf(body.tree)).toEqual(['FZ', 'FZ-N']);
    const [{ rootId }] = (await t.db.dataSource.query(
      `SELECT id::int AS "rootId" FROM sys_organization WHERE code = 'ROOT'`,
    )) as { rootId: number }[];
    expect(body.organizationIds).toEqual([rootId]);
  });
});
