/**
 * The sending side of the command channel on real Redis, against a stand-in for the owning gateway replica
 * that answers each request as the test tells it.
 */
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { testEnv } from '@voltdepot/server-testing';
import { commandChannel, connectionKey } from './command-channels';
import { parseCommandRequest, type RemoteCommandReply, type RemoteCommandRequest } from './command-messages';
import { REPLY_GRACE_MS, ReplicaCommandSender } from './replica-command.sender';

const prefix = `t-ocpp-cmd-${randomUUID().slice(0, 8)}`;
const redis = new Redis(testEnv().redisUrl);
const sender = new ReplicaCommandSender(redis, { prefix, senderId: 'sender-1' });

/** What the stand-in replica does with a request: publish these messages on its reply channel. */
type Answer = (request: RemoteCommandRequest) => Array<RemoteCommandReply | string>;

/** A gateway replica listening on its command channel; records the requests it got. */
class StandInReplica {
  readonly requests: RemoteCommandRequest[] = [];
  answer: Answer = () => [];
  private readonly subscriber = redis.duplicate();

  constructor(readonly replicaId: string) {}

  async start(): Promise<void> {
    this.subscriber.on('message', (_channel: string, message: string) => {
      const request = parseCommandRequest(message);
      if (!request) return;
      this.requests.push(request);
      void (async () => {
        for (const reply of this.answer(request)) {
          await redis.publish(request.replyTo, typeof reply === 'string' ? reply : JSON.stringify(reply));
        }
      })();
    });
    await this.subscriber.subscribe(commandChannel(prefix, this.replicaId));
  }

  async stop(): Promise<void> {
    await this.subscriber.quit();
  }
}

const replica = new StandInReplica('replica-a');

async function connect(chargePointId: string, replicaId: string): Promise<void> {
  const at = new Date().toISOString();
  await redis.hset(connectionKey(prefix, chargePointId), {
    replicaId,
    sessionId: randomUUID(),
    connectedAt: at,
    lastSeenAt: at,
  });
}

beforeAll(async () => {
  await replica.start();
  await sender.start();
  await connect('CP-A', replica.replicaId);
});

afterEach(() => {
  replica.answer = () => [];
});

afterAll(async () => {
  await sender.stop();
  await replica.stop();
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  await redis.quit();
});

describe('ReplicaCommandSender', () => {
  it("publishes the request on the owner's command channel and returns the pile's confirmation", async () => {
    replica.answer = (request) => [
      { requestId: request.requestId, ok: true, response: { status: 'Accepted' } },
    ];
    const outcome = await sender.send({
      chargePointId: 'CP-A',
      action: 'Reset',
      params: { type: 'Soft' },
      timeoutMs: 5_000,
    });
    expect(outcome).toEqual({ kind: 'answered', replicaId: 'replica-a', response: { status: 'Accepted' } });
    expect(replica.requests.at(-1)).toEqual({
      requestId: expect.any(String),
      replyTo: `${prefix}:ocpp:cmd-reply:sender-1`,
      chargePointId: 'CP-A',
      action: 'Reset',
      params: { type: 'Soft' },
      timeoutMs: 5_000,
    });
  });

  it("returns the owner's error code, message and details", async () => {
    replica.answer = (request) => [
      {
        requestId: request.requestId,
        ok: false,
        code: 'OCPP_PILE_CALL_ERROR',
        message: 'pile CP-A answered ClearCache with NotImplemented: no',
        details: { errorCode: 'NotImplemented' },
      },
    ];
    expect(
      await sender.send({ chargePointId: 'CP-A', action: 'ClearCache', params: {}, timeoutMs: 5_000 }),
    ).toEqual({
      kind: 'failed',
      replicaId: 'replica-a',
      code: 'OCPP_PILE_CALL_ERROR',
      message: 'pile CP-A answered ClearCache with NotImplemented: no',
      details: { errorCode: 'NotImplemented' },
    });
  });

  it('matches concurrent replies to their requests', async () => {
    const pending: Array<() => void> = [];
    replica.answer = (request) => {
      // answer both once the second has arrived, the later request first
      pending.push(
        () =>
          void redis.publish(
            request.replyTo,
            JSON.stringify({ requestId: request.requestId, ok: true, response: request.params }),
          ),
      );
      if (pending.length === 2) pending.reverse().forEach((reply) => reply());
      return [];
    };
    const [first, second] = await Promise.all([
      sender.send({ chargePointId: 'CP-A', action: 'GetConfiguration', params: { n: 1 }, timeoutMs: 5_000 }),
      sender.send({ chargePointId: 'CP-A', action: 'GetConfiguration', params: { n: 2 }, timeoutMs: 5_000 }),
    ]);
    expect(first).toMatchObject({ kind: 'answered', response: { n: 1 } });
    expect(second).toMatchObject({ kind: 'answered', response: { n: 2 } });
  });

  it('ignores replies to requests it is not waiting for, and malformed ones', async () => {
    replica.answer = (request) => [
      'not json',
      { requestId: randomUUID(), ok: true, response: { status: 'Rejected' } },
      { requestId: request.requestId, ok: true, response: { status: 'Accepted' } },
    ];
    expect(
      await sender.send({
        chargePointId: 'CP-A',
        action: 'Reset',
        params: { type: 'Hard' },
        timeoutMs: 5_000,
      }),
    ).toEqual({ kind: 'answered', replicaId: 'replica-a', response: { status: 'Accepted' } });
  });

  it('times out after timeoutMs and the grace period when only a reply to another request comes', async () => {
    replica.answer = () => [{ requestId: randomUUID(), ok: true, response: { status: 'Accepted' } }];
    const started = Date.now();
    expect(
      await sender.send({ chargePointId: 'CP-A', action: 'Reset', params: { type: 'Hard' }, timeoutMs: 100 }),
    ).toEqual({ kind: 'timeout', replicaId: 'replica-a' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(100 + REPLY_GRACE_MS - 20);
  });

  it('reports a replica nobody listens for as gone, at once', async () => {
    await connect('CP-ORPHAN', 'replica-crashed');
    const started = Date.now();
    expect(
      await sender.send({ chargePointId: 'CP-ORPHAN', action: 'Reset', params: {}, timeoutMs: 5_000 }),
    ).toEqual({ kind: 'replica-gone', replicaId: 'replica-crashed' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('reports a pile without a connection record, or with one naming the sender itself, as not connected', async () => {
    await connect('CP-SELF', 'sender-1');
    for (const chargePointId of ['CP-NOWHERE', 'CP-SELF']) {
      expect(await sender.send({ chargePointId, action: 'Reset', params: {}, timeoutMs: 5_000 })).toEqual({
        kind: 'not-connected',
      });
    }
    expect(replica.requests.map((r) => r.chargePointId)).not.toContain('CP-NOWHERE');
  });

  it('refuses to send before it is started', async () => {
    const idle = new ReplicaCommandSender(redis, { prefix, senderId: 'sender-idle' });
    await expect(
      idle.send({ chargePointId: 'CP-A', action: 'Reset', params: {}, timeoutMs: 100 }),
    ).rejects.toThrow('not started');
  });
});
