import { createHash, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';
import { isValidChargePointId, OCPP16_PROTOCOL } from '@voltdepot/shared-ocpp';
import type { PileState } from './pile-registry.repository';
import type { PileRegistryCache } from './pile-registry.cache';

export type HandshakeInput = {
  chargePointId: string;
  endpoint: string;
  protocols: Set<string>;
  password: Buffer | undefined;
  remoteAddress: string | undefined;
};

export type HandshakeDecision =
  | { accepted: true; chargePointId: string; state: PileState }
  | {
      accepted: false;
      status: 400 | 401 | 404;
      reason: string;
      log: 'unknown-pile' | 'bad-credentials' | 'bad-request';
    };

export type UnknownPileRecorder = (chargePointId: string, remoteAddress: string | undefined) => Promise<void>;

/**
 * Security profile 1 (OCPP 1.6 security whitepaper): HTTP Basic with a per-pile password, checked
 * against the argon2id hash in the registry. A verified password is remembered (as a SHA-256 digest,
 * per pile and hash) so that a reconnect storm does not cost one argon2 verification per pile.
 */
export class PileAuthenticator {
  private readonly verified = new Map<string, { hash: string; digest: Buffer }>();

  constructor(
    private readonly registry: PileRegistryCache,
    private readonly recordUnknown: UnknownPileRecorder,
    private readonly endpointPath: string,
  ) {}

  async decide(input: HandshakeInput): Promise<HandshakeDecision> {
    if (input.endpoint !== this.endpointPath) {
      return { accepted: false, status: 404, reason: 'Not found', log: 'bad-request' };
    }
    if (!isValidChargePointId(input.chargePointId)) {
      return { accepted: false, status: 400, reason: 'Invalid charge point id', log: 'bad-request' };
    }
    if (!input.protocols.has(OCPP16_PROTOCOL)) {
      return { accepted: false, status: 400, reason: 'Subprotocol ocpp1.6 required', log: 'bad-request' };
    }
    const pile = await this.registry.get(input.chargePointId);
    if (!pile) {
      await this.recordUnknown(input.chargePointId, input.remoteAddress);
      return { accepted: false, status: 404, reason: 'Unknown charge point', log: 'unknown-pile' };
    }
    if (
      !pile.passwordHash ||
      !input.password ||
      !(await this.passwordMatches(pile.chargePointId, pile.passwordHash, input.password))
    ) {
      return { accepted: false, status: 401, reason: 'Unauthorized', log: 'bad-credentials' };
    }
    return { accepted: true, chargePointId: pile.chargePointId, state: pile.state };
  }

  private async passwordMatches(chargePointId: string, hash: string, password: Buffer): Promise<boolean> {
    const digest = createHash('sha256').update(password).digest();
    const known = this.verified.get(chargePointId);
    if (known && known.hash === hash && timingSafeEqual(known.digest, digest)) return true;
    let ok = false;
    try {
      ok = await argon2.verify(hash, password);
    } catch {
      ok = false; // a malformed hash in the registry fails closed
    }
    if (ok) {
      if (this.verified.size > 50_000) this.verified.clear();
      this.verified.set(chargePointId, { hash, digest });
    }
    return ok;
  }
}

/** Hash a pile password for `pile_registry.password_hash` (argon2id). */
export function hashPilePassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}
