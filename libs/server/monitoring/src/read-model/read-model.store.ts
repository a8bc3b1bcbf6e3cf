import type Redis from 'ioredis';
import type { ProjectionPlan, ReadModelOp } from './projection';
import type { ReadModelKeys } from './read-model.keys';

/** A status event marker lives long enough to outlast any redelivery. */
const MARKER_TTL_S = 7 * 86_400;

/**
 * Applies one event's operations atomically (a Lua script): either the whole event takes effect or
 * none of it. KEYS[1] is the event marker (or unused), KEYS[2] the arrival counter, then the keys of
 * the operations, which refer to them by index. Returns 1 when something changed.
 */
const APPLY = `
local plan = cjson.decode(ARGV[1])
if plan.marker then
  if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', plan.markerTtl) then return -1 end
end
local changed = 0
for _, op in ipairs(plan.ops) do
  local key = KEYS[op.k]
  if op.op == 'hist' then
    local seq = redis.call('INCR', KEYS[2])
    redis.call('ZADD', key, op.score, op.at .. '|' .. string.format('%015d', seq) .. '|' .. op.data)
    redis.call('ZREMRANGEBYRANK', key, 0, -(op.keep + 1))
    changed = 1
  elseif op.op == 'lww' then
    for field, pair in pairs(op.fields) do
      local current = redis.call('HGET', key, field .. '@')
      if (not current) or pair[1] >= current then
        if redis.call('HGET', key, field) ~= pair[2] then changed = 1 end
        redis.call('HSET', key, field, pair[2], field .. '@', pair[1])
      end
    end
  elseif op.op == 'hset' then
    for field, value in pairs(op.fields) do
      if redis.call('HGET', key, field) ~= value then
        redis.call('HSET', key, field, value)
        changed = 1
      end
    end
  elseif op.op == 'zmin' then
    local current = redis.call('ZSCORE', key, op.member)
    if (not current) or tonumber(op.score) < tonumber(current) then
      redis.call('ZADD', key, op.score, op.member)
      redis.call('ZREMRANGEBYRANK', key, 0, -(op.keep + 1))
      changed = 1
    end
  elseif op.op == 'sadd' then
    if redis.call('SADD', key, op.member) == 1 then changed = 1 end
  elseif op.op == 'max' then
    local current = redis.call('HGET', key, op.field)
    if (not current) or op.value > current then
      redis.call('HSET', key, op.field, op.value)
      changed = 1
    end
  elseif op.op == 'expire' then
    redis.call('EXPIRE', key, op.seconds)
  end
end
return changed`;

export type ApplyOutcome = 'changed' | 'unchanged' | 'duplicate';

/** The raw state of one pile as stored (interpreted by views.ts). */
export type StoredPile = {
  chargePointId: string;
  info: Record<string, string>;
  /** Connection history entries, oldest first. */
  connections: string[];
  connectors: number[];
  guns: StoredGun[];
};

export type StoredGun = {
  connectorId: number;
  /** Status history entries, newest first. */
  statuses: string[];
  /** The gun's latest transaction (by start), if any. */
  transaction: StoredTransaction | null;
};

export type StoredTransaction = { transactionId: number; fields: Record<string, string> };

export type StoredCardSession = {
  idTag: string;
  chargePointId: string;
  /** When the session started (or was first seen). */
  rankedAt: number;
  transaction: StoredTransaction;
  /** The gun's latest transaction id: a newer one means this session is over, whatever it says. */
  gunLatestTransactionId: number | null;
};

/** The monitoring read model in Redis: apply events, read piles and card sessions. */
export class ReadModelStore {
  constructor(
    private readonly redis: Redis,
    readonly keys: ReadModelKeys,
  ) {}

  async apply(plan: ProjectionPlan): Promise<ApplyOutcome> {
    const keyIndex = new Map<string, number>();
    const keyList = [plan.markerKey ?? this.keys.eventMarker('-'), this.keys.seq];
    const indexOf = (key: string) => {
      let index = keyIndex.get(key);
      if (index === undefined) {
        keyList.push(key);
        index = keyList.length; // Lua KEYS are 1-based
        keyIndex.set(key, index);
      }
      return index;
    };
    const ops = plan.ops.map((op) => encode(op, indexOf(op.key)));
    const result = Number(
      await this.redis.eval(
        APPLY,
        keyList.length,
        ...keyList,
        JSON.stringify({ marker: plan.markerKey !== undefined, markerTtl: MARKER_TTL_S, ops }),
      ),
    );
    return result < 0 ? 'duplicate' : result > 0 ? 'changed' : 'unchanged';
  }

  /** The rebuild generation; null once the model's keys are lost. */
  async epoch(): Promise<string | null> {
    return this.redis.get(this.keys.epoch);
  }

  /** Start a generation unless one exists; returns the one in force. */
  async claimEpoch(candidate: string): Promise<string> {
    await this.redis.set(this.keys.epoch, candidate, 'NX');
    return (await this.redis.get(this.keys.epoch)) ?? candidate;
  }

  async readPiles(
    chargePointIds: string[],
    extraConnectors: Map<string, number[]> = new Map(),
  ): Promise<Map<string, StoredPile>> {
    const ids = [...new Set(chargePointIds)];
    const result = new Map<string, StoredPile>();
    if (!ids.length) return result;
    const first = this.redis.pipeline();
    for (const cp of ids) {
      first.hgetall(this.keys.pile(cp));
      first.zrange(this.keys.pileConnections(cp), 0, -1);
      first.smembers(this.keys.pileConnectors(cp));
    }
    const firstResults = unwrap(await first.exec());
    const guns: { cp: string; connectorId: number }[] = [];
    ids.forEach((cp, i) => {
      const info = firstResults[i * 3] as Record<string, string>;
      const connections = firstResults[i * 3 + 1] as string[];
      const reported = (firstResults[i * 3 + 2] as string[])
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0);
      const connectors = [...new Set([...reported, ...(extraConnectors.get(cp) ?? [])])].sort(
        (a, b) => a - b,
      );
      result.set(cp, { chargePointId: cp, info, connections, connectors, guns: [] });
      // Connector 0 carries the status of the pile as a whole.
      for (const connectorId of [0, ...connectors]) guns.push({ cp, connectorId });
    });
    const second = this.redis.pipeline();
    for (const { cp, connectorId } of guns) {
      second.zrevrange(this.keys.gunStatuses(cp, connectorId), 0, -1);
      second.zrevrange(this.keys.gunTransactions(cp, connectorId), 0, 0);
    }
    const secondResults = unwrap(await second.exec());
    const third = this.redis.pipeline();
    const latest: (number | null)[] = guns.map((_, i) => {
      const [txId] = secondResults[i * 2 + 1] as string[];
      if (txId === undefined) return null;
      third.hgetall(this.keys.transaction(guns[i].cp, txId));
      return Number(txId);
    });
    const thirdResults = latest.some((id) => id !== null) ? unwrap(await third.exec()) : [];
    let t = 0;
    guns.forEach(({ cp, connectorId }, i) => {
      const txId = latest[i];
      const fields = txId === null ? null : (thirdResults[t++] as Record<string, string>);
      result.get(cp)!.guns.push({
        connectorId,
        statuses: secondResults[i * 2] as string[],
        transaction:
          txId !== null && fields && Object.keys(fields).length ? { transactionId: txId, fields } : null,
      });
    });
    return result;
  }

  /** The latest session of each card, with whether its gun has moved on to another one. */
  async latestCardSessions(idTags: string[]): Promise<Map<string, StoredCardSession>> {
    const tags = [...new Set(idTags)];
    const result = new Map<string, StoredCardSession>();
    if (!tags.length) return result;
    const first = this.redis.pipeline();
    for (const tag of tags) first.zrevrange(this.keys.idTag(tag), 0, 0, 'WITHSCORES');
    const ranked = unwrap(await first.exec()) as string[][];
    const found = tags
      .map((tag, i) => ({ tag, member: ranked[i][0], score: Number(ranked[i][1]) }))
      .filter((f): f is { tag: string; member: string; score: number } => f.member !== undefined);
    if (!found.length) return result;
    const second = this.redis.pipeline();
    for (const { member } of found) {
      const [cp, txId] = splitMember(member);
      second.hgetall(this.keys.transaction(cp, txId));
    }
    const hashes = unwrap(await second.exec()) as Record<string, string>[];
    const third = this.redis.pipeline();
    found.forEach(({ member }, i) => {
      const [cp] = splitMember(member);
      third.zrevrange(this.keys.gunTransactions(cp, Number(hashes[i]['connectorId'] ?? 0)), 0, 0);
    });
    const gunLatest = unwrap(await third.exec()) as string[][];
    found.forEach(({ tag, member, score }, i) => {
      const [cp, txId] = splitMember(member);
      if (!Object.keys(hashes[i]).length) return; // expired
      result.set(tag, {
        idTag: tag,
        chargePointId: cp,
        rankedAt: score,
        transaction: { transactionId: Number(txId), fields: hashes[i] },
        gunLatestTransactionId: gunLatest[i][0] === undefined ? null : Number(gunLatest[i][0]),
      });
    });
    return result;
  }
}

function encode(op: ReadModelOp, k: number): Record<string, unknown> {
  switch (op.op) {
    case 'hist':
      return { op: op.op, k, score: String(Date.parse(op.at)), at: op.at, data: op.data, keep: op.keep };
    case 'lww':
    case 'hset':
      return { op: op.op, k, fields: op.fields };
    case 'zmin':
      return { op: op.op, k, score: String(op.score), member: op.member, keep: op.keep };
    case 'sadd':
      return { op: op.op, k, member: op.member };
    case 'max':
      return { op: op.op, k, field: op.field, value: op.value };
    case 'expire':
      return { op: op.op, k, seconds: op.seconds };
  }
}

function splitMember(member: string): [string, string] {
  const at = member.lastIndexOf('|');
  return [member.slice(0, at), member.slice(at + 1)];
}

function unwrap(results: [Error | null, unknown][] | null): unknown[] {
  return (results ?? []).map(([error, value]) => {
    if (error) throw error;
    return value;
  });
}
