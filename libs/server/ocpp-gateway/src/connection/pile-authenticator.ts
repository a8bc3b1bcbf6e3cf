import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { isValidChargePointId, OCPP16_PROTOCOL } from '@voltdepot/shared-ocpp';
import type { PilePasswordCheck, PilePasswordHasher } from '@voltdepot/server-pile-credentials';
import { normalizeAddress, type HandshakeThrottle, type ThrottleKey } from './handshake-throttle';
import type { PileRecord, PileRegistryRepository, PileState } from './pile-registry.repository';
import type { PileRegistryCache } from './pile-registry.cache';
import { SlowVerifications } from './slow-verifications';

export type HandshakeInput = {
  chargePointId: string;
  endpoint: string;
  protocols: Set<string>;
  password: Buffer | undefined;
  remoteAddress: string | undefined;
  /** Aborted when the handshake has been answered or its socket closed: slow work not begun is skipped. */
  signal?: AbortSignal;
};

export type HandshakeDecision =
  | { accepted: true; chargePointId: string; state: PileState }
  | {
      accepted: false;
      status: 400 | 401 | 404 | 429 | 503;
      reason: string;
      /** What the gateway logs; the pile sees the status and reason only. */
      log: 'bad-request' | 'unknown-pile' | 'bad-credentials' | 'throttled' | 'busy';
      /** Throttled: what is locked. A failure: the ids or addresses whose failures just reached the limit. */
      locked?: ThrottleKey[];
    };

export type PileAuthenticatorDeps = {
  registry: Pick<PileRegistryCache, 'get' | 'remember'>;
  repository: Pick<PileRegistryRepository, 'recordUnknownAttempt' | 'restorePasswordHash'>;
  hasher: PilePasswordHasher;
  /** Failure counts per id and address (shared by the replicas); none: no throttling. */
  throttle?: Pick<HandshakeThrottle, 'addressLocked' | 'pileLocked' | 'recordFailure'>;
  endpointPath: string;
  logger: Pick<Logger, 'info' | 'error'>;
  /** argon2 verifications at once, and waiting (beyond: answered 503 at once). */
  slowVerifications?: { concurrency: number; maxWaiting: number };
};

/** Unknown id, wrong or missing password: one answer, so that nobody learns which ids are registered. */
const UNAUTHORIZED = { accepted: false, status: 401, reason: 'Unauthorized' } as const;

/** Unknown-pile attempts written at once; beyond, an attempt is not recorded (a flood of unknown ids). */
const MAX_UNKNOWN_WRITES = 20;

const THROTTLE_ERROR_LOG_MS = 10_000;

/**
 * Security profile 1 (OCPP 1.6 security whitepaper): HTTP Basic with a per-pile password, checked
 * against the keyed hash in the registry (`@voltdepot/server-pile-credentials`). A keyed hash costs
 * microseconds, so verified passwords are not remembered: a reconnect storm after a restart costs no
 * more than any other. An older form (argon2, or a previous key) that matches is stored again in the
 * current form, by exactly one replica. Failures are counted per id and per address; once either has
 * used up its failures its handshakes are refused (429) without looking at the password.
 */
export class PileAuthenticator {
  private readonly slow: SlowVerifications;
  private unknownWrites = 0;
  /** When a throttle failure was last logged (once per THROTTLE_ERROR_LOG_MS: a storm would repeat it per pile). */
  private throttleErrorLoggedAt = -Infinity;

  constructor(private readonly deps: PileAuthenticatorDeps) {
    const { concurrency = 2, maxWaiting = 200 } = deps.slowVerifications ?? {};
    this.slow = new SlowVerifications(concurrency, maxWaiting);
  }

  async decide(input: HandshakeInput): Promise<HandshakeDecision> {
    if (input.endpoint !== this.deps.endpointPath) {
      return { accepted: false, status: 404, reason: 'Not found', log: 'bad-request' };
    }
    if (!isValidChargePointId(input.chargePointId)) {
      return { accepted: false, status: 400, reason: 'Invalid charge point id', log: 'bad-request' };
    }
    if (!input.protocols.has(OCPP16_PROTOCOL)) {
      return { accepted: false, status: 400, reason: 'Subprotocol ocpp1.6 required', log: 'bad-request' };
    }
    const { throttle } = this.deps;
    const address = input.remoteAddress;
    if (await this.locked(() => throttle?.addressLocked(address))) {
      return this.throttled({ scope: 'address', value: normalizeAddress(address) ?? '' });
    }
    const pile = await this.deps.registry.get(input.chargePointId);
    const credentials = credentialsOf(pile);
    if (await this.locked(() => throttle?.pileLocked(input.chargePointId, credentials))) {
      return this.throttled({ scope: 'pile', value: input.chargePointId });
    }
    if (!pile) {
      this.recordUnknown(input.chargePointId, address);
      return { ...UNAUTHORIZED, log: 'unknown-pile', locked: await this.recordFailure(input, credentials) };
    }
    const check =
      pile.passwordHash && input.password
        ? await this.verify(pile.passwordHash, input.password, input.signal)
        : { match: false };
    if (!check) return { accepted: false, status: 503, reason: 'Service Unavailable', log: 'busy' };
    if (!check.match) {
      return {
        ...UNAUTHORIZED,
        log: 'bad-credentials',
        locked: await this.recordFailure(input, credentials),
      };
    }
    if (check.rehash) this.restore(pile, check.rehash);
    return { accepted: true, chargePointId: pile.chargePointId, state: pile.state };
  }

  private throttled(key: ThrottleKey): HandshakeDecision {
    return { accepted: false, status: 429, reason: 'Too Many Requests', log: 'throttled', locked: [key] };
  }

  /** undefined: a slow verification that could not be run in time (the queue full, or given up). */
  private verify(
    stored: string,
    password: Buffer,
    signal?: AbortSignal,
  ): Promise<PilePasswordCheck | undefined> {
    const { hasher } = this.deps;
    if (!hasher.isSlow(stored)) return hasher.verify(stored, password);
    return this.slow.run(() => hasher.verify(stored, password), signal);
  }

  /** Store the password in the current form; only if the registry still holds the hash just verified. */
  private restore(pile: PileRecord, rehash: string): void {
    const { repository, registry, hasher, logger } = this.deps;
    const from = hasher.formOf(pile.passwordHash!);
    repository.restorePasswordHash(pile.chargePointId, pile.passwordHash!, rehash).then(
      (row) => {
        if (!row) return; // another replica did it, or the password changed meanwhile
        registry.remember(row);
        logger.info(
          { chargePointId: pile.chargePointId, from, to: hasher.formOf(rehash) },
          'pile password stored again in the current form',
        );
      },
      (error: unknown) =>
        logger.error(
          { err: error, chargePointId: pile.chargePointId },
          'could not store the pile password again',
        ),
    );
  }

  /** Throttling must not take the gateway down with Redis: without counts, nothing is locked. */
  private async locked(check: () => Promise<boolean> | undefined): Promise<boolean> {
    try {
      return (await check()) ?? false;
    } catch (error) {
      this.throttleError(error, 'handshake throttle unavailable; not throttling');
      return false;
    }
  }

  private async recordFailure(input: HandshakeInput, credentials: string): Promise<ThrottleKey[]> {
    try {
      return (
        (await this.deps.throttle?.recordFailure(input.chargePointId, credentials, input.remoteAddress)) ?? []
      );
    } catch (error) {
      this.throttleError(error, 'handshake throttle unavailable; failure not counted');
      return [];
    }
  }

  private throttleError(error: unknown, message: string): void {
    if (Date.now() - this.throttleErrorLoggedAt < THROTTLE_ERROR_LOG_MS) return;
    this.throttleErrorLoggedAt = Date.now();
    this.deps.logger.error({ err: error }, message);
  }

  /** For the operator's list of piles to register; not awaited, so that it does not set the answer's pace. */
  private recordUnknown(chargePointId: string, remoteAddress: string | undefined): void {
    if (this.unknownWrites >= MAX_UNKNOWN_WRITES) return;
    this.unknownWrites++;
    this.deps.repository
      .recordUnknownAttempt(chargePointId, remoteAddress)
      .catch((error: unknown) =>
        this.deps.logger.error({ err: error, chargePointId }, 'could not record unknown pile'),
      )
      .finally(() => this.unknownWrites--);
  }
}

/**
 * Which credentials an id's failures count against (see HandshakeThrottle): a short digest of the
 * stored hash, or `none` for an unknown id or one without a password.
 */
function credentialsOf(pile: PileRecord | undefined): string {
  if (!pile?.passwordHash) return 'none';
  return createHash('sha256').update(pile.passwordHash).digest('hex').slice(0, 12);
}
