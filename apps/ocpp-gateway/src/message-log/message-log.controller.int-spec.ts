import request from 'supertest';
import type { TestDatabase } from '@voltdepot/server-testing';
import { startGatewayHttpApp, type GatewayHttpApp } from '../testing/fixtures/gateway-http-app';

let gateway: GatewayHttpApp;
let db: TestDatabase;
let app: GatewayHttpApp['app'];
const tokens: Record<'admin' | 'operator' | 'maintainer' | 'fleet_manager', string> = {
  admin: '',
  operator: '',
  maintainer: '',
  fleet_manager: '',
};

const NOW = Date.now();
const ago = (minutes: number) => new Date(NOW - minutes * 60_000);

/** Frames of LOG-Q: [minutes ago, direction, type, message id, action]. */
const FRAMES: [number, 'in' | 'out', number | null, string | null, string | null][] = [
  [5, 'in', 2, 'm1', 'Heartbeat'],
  [5, 'out', 3, 'm1', 'Heartbeat'], // same instant as the call: ordered by id
  [21, 'in', 2, 'm2', 'MeterValues'],
  [20, 'out', 3, 'm2', 'MeterValues'],
  [31, 'out', 2, 'c1', 'Reset'],
  [30, 'in', 4, 'c1', 'Reset'],
  [90, 'in', 2, 'm0', 'BootNotification'], // older than the default hour
  [3 * 24 * 60, 'in', 2, 'old', 'Heartbeat'], // three days ago
];

const get = (
  chargePointId: string,
  page: number | string,
  size: number | string,
  query = '',
  role = 'operator',
) =>
  request(app.getHttpServer())
    .get(`/api/pile/${chargePointId}/messages/page/${page}/size/${size}${query ? `?${query}` : ''}`)
    .set('authorization', `Bearer ${tokens[role as keyof typeof tokens]}`);

beforeAll(async () => {
  gateway = await startGatewayHttpApp();
  ({ db, app } = gateway);
  for (const [minutes, direction, type, messageId, action] of FRAMES) {
    await db.dataSource.query(
      `INSERT INTO ocpp_message_log (charge_point_id, direction, message_type, message_id, action, frame, logged_at)
       VALUES ('LOG-Q', $1, $2, $3, $4, $5, $6)`,
      [direction, type, messageId, action, JSON.stringify([type, messageId, action, {}]), ago(minutes)],
    );
  }
  // Another pile's frame in the same hour: never in LOG-Q's pages.
  await db.dataSource.query(
    `INSERT INTO ocpp_message_log (charge_point_id, direction, message_type, message_id, action, frame, logged_at)
     VALUES ('LOG-OTHER', 'in', 2, 'z', 'Heartbeat', '[2,"z","Heartbeat",{}]', $1)`,
    [ago(1)],
  );
  for (const role of Object.keys(tokens) as (keyof typeof tokens)[])
    tokens[role] = await gateway.tokenFor(role);
});

afterAll(() => gateway?.close());

type FrameBody = { messageId: string; direction: string; action: string; loggedAt: string; id: string };
const ids = (list: FrameBody[]) => list.map((f) => `${f.direction}:${f.messageId}`);

describe('GET /api/pile/{chargePointId}/messages/page/{page}/size/{size}', () => {
  it('401 without a token', async () => {
    const res = await request(app.getHttpServer()).get('/api/pile/LOG-Q/messages/page/1/size/10').expect(401);
    expect(res.body).toMatchObject({ code: 'AUTH_TOKEN_MISSING' });
  });

  it('403 naming the permission for a role without it', async () => {
    const res = await get('LOG-Q', 1, 10, '', 'fleet_manager').expect(403);
    expect(res.body).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Missing permission: ocpp:messageLog:query',
    });
  });

  it.each(['admin', 'operator', 'maintainer'])('%s may query', async (role) => {
    await get('LOG-Q', 1, 10, '', role).expect(200);
  });

  it('defaults to the last hour, newest first (frames of one instant by id, the answer first)', async () => {
    const res = await get('LOG-Q', 1, 50).expect(200);
    expect(ids(res.body.list)).toEqual(['out:m1', 'in:m1', 'out:m2', 'in:m2', 'in:c1', 'out:c1']);
    expect(res.body.total).toBe(6);
    expect(res.body.list[0]).toMatchObject({
      chargePointId: 'LOG-Q',
      direction: 'out',
      messageType: 3,
      messageId: 'm1',
      action: 'Heartbeat',
      frame: '[3,"m1","Heartbeat",{}]',
      loggedAt: ago(5).toISOString(),
    });
    expect(res.body.list[0].id).toMatch(/^\d+$/);
  });

  it('takes a time range: from inclusive, to exclusive', async () => {
    const from = encodeURIComponent(ago(31).toISOString());
    const to = encodeURIComponent(ago(20).toISOString());
    const res = await get('LOG-Q', 1, 50, `from=${from}&to=${to}`).expect(200);
    expect(ids(res.body.list)).toEqual(['in:m2', 'in:c1', 'out:c1']);
  });

  it('with only from, covers up to 7 days after it', async () => {
    const from = encodeURIComponent(ago(4 * 24 * 60).toISOString());
    const res = await get('LOG-Q', 1, 50, `from=${from}`).expect(200);
    expect(res.body.total).toBe(8);
    expect(ids(res.body.list).at(-1)).toBe('in:old');
  });

  it.each([
    ['direction=in', ['in:m1', 'in:m2', 'in:c1']],
    ['direction=out&action=Reset', ['out:c1']],
    ['action=MeterValues', ['out:m2', 'in:m2']],
    ['messageId=c1', ['in:c1', 'out:c1']],
    ['messageId=nothing', []],
  ])('filters: %s', async (query, expected) => {
    const res = await get('LOG-Q', 1, 50, query).expect(200);
    expect(ids(res.body.list)).toEqual(expected);
    expect(res.body.total).toBe(expected.length);
  });

  it('pages: the total is that of the whole range, pages do not overlap', async () => {
    const first = await get('LOG-Q', 1, 4).expect(200);
    const second = await get('LOG-Q', 2, 4).expect(200);
    const third = await get('LOG-Q', 3, 4).expect(200);
    expect(first.body.total).toBe(6);
    expect(ids(first.body.list)).toEqual(['out:m1', 'in:m1', 'out:m2', 'in:m2']);
    expect(ids(second.body.list)).toEqual(['in:c1', 'out:c1']);
    expect(third.body.list).toEqual([]);
  });

  it('an unknown pile has no frames (not a 404: the log outlives registry entries)', async () => {
    const res = await get('NO-SUCH-PILE', 1, 10).expect(200);
    expect(res.body).toEqual({ list: [], total: 0 });
  });

  it.each([
    [
      'a date without a time zone',
      1,
      10,
      'from=2025-11-25T08:00:00',
      'from',
      'ISO 8601 date-time with a time zone',
    ],
    ['a date that is not one', 1, 10, 'to=yesterday', 'to', 'ISO 8601 date-time with a time zone'],
    [
      'from after to',
      1,
      10,
      `from=${ago(10).toISOString()}&to=${ago(20).toISOString()}`,
      'from',
      'must be before to',
    ],
    [
      'from equal to to',
      1,
      10,
      `from=${ago(10).toISOString()}&to=${ago(10).toISOString()}`,
      'from',
      'must be before to',
    ],
    [
      'a range of more than 7 days',
      1,
      10,
      `from=${ago(8 * 24 * 60).toISOString()}&to=${ago(0).toISOString()}`,
      'from',
      'at most 7 days',
    ],
    ['a direction other than in/out', 1, 10, 'direction=sideways', 'direction', "must be 'in' or 'out'"],
    ['an action with a space', 1, 10, 'action=Boot%20Notification', 'action', 'OCPP action name'],
    ['an empty message id', 1, 10, 'messageId=', 'messageId', ''],
    ['a message id over 100 characters', 1, 10, `messageId=${'x'.repeat(101)}`, 'messageId', 'at most 100'],
    ['a repeated filter', 1, 10, 'direction=in&direction=out', 'direction', ''],
    ['an unknown filter', 1, 10, 'status=Accepted', '', 'status'],
    ['a page size over 500', 1, 501, '', 'size', 'at most 500'],
    ['page 0', 0, 10, '', 'page', ''],
    ['a page that is not a number', 'x', 10, '', 'page', 'decimal digits'],
  ])('%s is a 400 naming the field', async (_what, page, size, query, field, message) => {
    const res = await get('LOG-Q', page, size, query.replaceAll(':', '%3A').replaceAll('+', '%2B')).expect(
      400,
    );
    expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', correlationId: expect.any(String) });
    const details = res.body.details as { field: string; message: string }[];
    const named = details.find((d) => d.field === field) ?? (field === '' ? details[0] : undefined);
    expect(named).toBeDefined();
    expect(named!.message).toContain(message);
  });

  it('a bad pile id is a 400 naming chargePointId', async () => {
    const res = await get('LOG%20Q', 1, 10).expect(400);
    expect(res.body.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'chargePointId' })]),
    );
  });
});
