/** The `pile_command` journal on real PostgreSQL: what a command leaves behind, however it ends. */
import { createTestDatabase, type TestDatabase } from '@voltdepot/server-testing';
import { PileCommandErrorCode, PileCommandException } from './pile-command.exception';
import { PileCommandRepository } from './pile-command.repository';

let db: TestDatabase;
let journal: PileCommandRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  journal = new PileCommandRepository(db.dataSource);
});
afterAll(() => db?.drop());

const rows = (chargePointId: string) =>
  db.dataSource.query(
    `SELECT action, params, status, response, error, replica_id, completed_at IS NOT NULL AS completed
       FROM pile_command WHERE charge_point_id = $1 ORDER BY requested_at, id`,
    [chargePointId],
  );

describe('PileCommandRepository.record', () => {
  it('journals a command pending while it runs, then completed with the answer and the replica', async () => {
    let whileRunning: unknown;
    const answer = await journal.record(
      { chargePointId: 'J-1', action: 'Reset', params: { type: 'Soft' } },
      async () => {
        whileRunning = await rows('J-1');
        return { response: { status: 'Accepted' }, replicaId: 'gw-1' };
      },
    );
    expect(answer).toEqual({ response: { status: 'Accepted' }, replicaId: 'gw-1' });
    expect(whileRunning).toEqual([
      expect.objectContaining({
        action: 'Reset',
        params: { type: 'Soft' },
        status: 'pending',
        completed: false,
      }),
    ]);
    expect(await rows('J-1')).toEqual([
      {
        action: 'Reset',
        params: { type: 'Soft' },
        status: 'completed',
        response: { status: 'Accepted' },
        error: null,
        replica_id: 'gw-1',
        completed: true,
      },
    ]);
  });

  it.each([
    [new PileCommandException(PileCommandErrorCode.PileOffline, 'pile J-2 is not connected'), 'offline'],
    [
      new PileCommandException(PileCommandErrorCode.Timeout, 'pile J-2 did not answer Reset within 300 ms'),
      'timeout',
    ],
    [new PileCommandException(PileCommandErrorCode.PileNotAccepted, 'pile J-2 is Pending'), 'failed'],
    [
      new PileCommandException(PileCommandErrorCode.PileError, 'pile J-2 answered Reset with NotImplemented'),
      'failed',
    ],
  ])('a failure (%s) is journalled as %s with its code, and rethrown', async (failure, status) => {
    const chargePointId = `J-2-${status}-${failure.code}`;
    await expect(
      journal.record({ chargePointId, action: 'Reset', params: { type: 'Hard' } }, () =>
        Promise.reject(failure),
      ),
    ).rejects.toBe(failure);
    expect(await rows(chargePointId)).toEqual([
      expect.objectContaining({
        status,
        error: `${failure.code}: ${failure.message}`,
        response: null,
        completed: true,
      }),
    ]);
  });

  it('any other error is the pile’s error, journalled as failed', async () => {
    const rejected = journal.record({ chargePointId: 'J-3', action: 'ClearCache', params: undefined }, () =>
      Promise.reject(new Error('Redis connection lost')),
    );
    await expect(rejected).rejects.toMatchObject({
      code: PileCommandErrorCode.PileError,
      message: 'Redis connection lost',
      httpStatus: 502,
    });
    expect(await rows('J-3')).toEqual([
      expect.objectContaining({
        params: {},
        status: 'failed',
        error: 'OCPP_PILE_CALL_ERROR: Redis connection lost',
      }),
    ]);
  });
});

describe('PileCommandRepository.page', () => {
  it('pages one pile’s commands, newest first, with the total', async () => {
    for (const action of ['Reset', 'ClearCache', 'GetConfiguration'])
      await journal.record({ chargePointId: 'J-PAGE', action, params: {} }, async () => ({
        response: { action },
        replicaId: 'gw-1',
      }));
    await journal.record({ chargePointId: 'J-OTHER', action: 'Reset', params: {} }, async () => ({
      response: {},
      replicaId: 'gw-1',
    }));
    const first = await journal.page('J-PAGE', 1, 2);
    expect(first.total).toBe(3);
    expect(first.list.map((c) => c.action)).toEqual(['GetConfiguration', 'ClearCache']);
    expect(first.list[0]).toEqual({
      id: expect.any(String),
      chargePointId: 'J-PAGE',
      action: 'GetConfiguration',
      params: {},
      status: 'completed',
      response: { action: 'GetConfiguration' },
      error: null,
      replicaId: 'gw-1',
      requestedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      completedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
    });
    expect((await journal.page('J-PAGE', 2, 2)).list.map((c) => c.action)).toEqual(['Reset']);
    expect(await journal.page('J-NONE', 1, 10)).toEqual({ list: [], total: 0 });
  });
});
