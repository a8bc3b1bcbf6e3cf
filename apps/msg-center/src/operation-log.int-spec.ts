import { createTestDatabase, eventually, insertUser, TestDatabase } from '@voltdepot/server-testing';
import request from 'supertest';
import {
  msgTestConfig,
  RunningMsgCenter,
  startMsgCenter,
  testNamespace,
  tokenFor,
} from './fixtures/msg-center.fixtures';

const BASE = '/ms/m1/msg';

type LogRow = {
  userId: number | null;
  username: string | null;
  method: string;
  path: string;
  route: string | null;
  status: number;
  success: boolean;
  correlationId: string | null;
};

// msg-center writes the api's operation log (sys_operation_log, same database): the sys:log:operation
// screen shows changes to templates, configurations, groups, alerts, event rules and inboxes too.
describe('msg-center: every mutating request lands in the operation log (real PostgreSQL)', () => {
  let db: TestDatabase;
  let service: RunningMsgCenter;
  let admin: { id: number; username: string };
  let adminToken: string;

  const http = () => request(service.app.getHttpServer());
  const logOf = async (correlationId: string): Promise<LogRow[]> =>
    (await db.dataSource.query(
      `SELECT user_id::int AS "userId", username, method, path, route, status, success,
              correlation_id AS "correlationId"
         FROM sys_operation_log WHERE correlation_id = $1`,
      [correlationId],
    )) as LogRow[];
  const loggedOnce = (correlationId: string) =>
    eventually(async () => {
      const rows = await logOf(correlationId);
      if (rows.length === 0) throw new Error(`no operation log entry for ${correlationId}`);
      return rows;
    });

  beforeAll(async () => {
    db = await createTestDatabase();
    const config = msgTestConfig(db, testNamespace());
    service = await startMsgCenter(config);
    admin = await insertUser(db.dataSource, ['admin']);
    adminToken = await tokenFor(config, admin);
  });

  afterAll(async () => {
    await service?.close();
    await db?.drop();
  });

  it('a successful change: user, method, path, route template, status and success', async () => {
    const res = await http()
      .post(`${BASE}/group`)
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ name: 'Night shift', type: 'USER', memberIds: [admin.id] });
    expect(res.status).toBeLessThan(300);
    const id = (res.body as { id: number }).id;
    const deletion = await http().delete(`${BASE}/group/${id}`).set('Authorization', `Bearer ${adminToken}`);
    expect(deletion.status).toBeLessThan(300);
    expect(await loggedOnce(String(res.headers['x-correlation-id']))).toEqual([
      {
        userId: admin.id,
        username: admin.username,
        method: 'POST',
        path: `${BASE}/group`,
        route: `${BASE}/group`,
        status: res.status,
        success: true,
        correlationId: res.headers['x-correlation-id'],
      },
    ]);
    const [deleted] = await loggedOnce(String(deletion.headers['x-correlation-id']));
    expect(deleted).toMatchObject({
      userId: admin.id,
      method: 'DELETE',
      path: `${BASE}/group/${id}`,
      route: `${BASE}/group/:id`,
      status: deletion.status,
      success: true,
    });
  });

  it('a refused change is recorded with its status: invalid body (400) and an anonymous caller (401)', async () => {
    const invalid = await http()
      .post(`${BASE}/inbox/read`)
      .set('Authorization', `Bearer ${adminToken}`)
      .send({ ids: 'not-a-list' })
      .expect(400);
    expect(await loggedOnce(String(invalid.headers['x-correlation-id']))).toEqual([
      expect.objectContaining({
        userId: admin.id,
        username: admin.username,
        method: 'POST',
        path: `${BASE}/inbox/read`,
        status: 400,
        success: false,
      }),
    ]);
    const anonymous = await http().put(`${BASE}/template/1?x=1`).send({}).expect(401);
    expect(await loggedOnce(String(anonymous.headers['x-correlation-id']))).toEqual([
      expect.objectContaining({
        userId: null,
        username: null,
        method: 'PUT',
        path: `${BASE}/template/1`,
        status: 401,
        success: false,
      }),
    ]);
  });

  it('reads are not recorded', async () => {
    const res = await http()
      .get(`${BASE}/inbox/unread`)
      .set('Authorization', `Bearer ${adminToken}`)
      .expect(200);
    // Give the finish handler the time it would need.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await logOf(String(res.headers['x-correlation-id']))).toEqual([]);
  });
});
