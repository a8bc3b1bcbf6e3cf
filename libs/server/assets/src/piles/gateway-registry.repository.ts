import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { UnknownPileAttempt } from './piles.dto';

export type GatewayPileState = 'active' | 'pending' | 'disabled';

/** Device status (business-areas §4) -> what the gateway does with the pile's connection. */
export function gatewayStateOf(deviceStatus: number): GatewayPileState {
  switch (deviceStatus) {
    case 50:
      return 'active';
    case 1:
      return 'pending';
    default:
      return 'disabled';
  }
}

/** Attempts of charge points that no pile has taken since. */
const UNREGISTERED = `NOT EXISTS (SELECT 1 FROM charging_pile p WHERE p.charge_point_id = u.charge_point_id)`;

/**
 * The gateway's registry, through what the gateway publishes (docs/decisions/0001-table-ownership.md):
 * its `gateway_*_pile` functions (the gateway picks changes up within ~2 s) and its view of unknown
 * handshakes. Writes run in the caller's transaction, so a pile and its registry row change together.
 */
@Injectable()
export class GatewayRegistryRepository {
  constructor(private readonly db: DataSource) {}

  /** Copies the pile's identity, state and password hash into the registry. */
  async syncPile(m: EntityManager, pileId: number, state: GatewayPileState): Promise<void> {
    await m.query(
      `SELECT gateway_register_pile(charge_point_id, $2, ocpp_password_hash) FROM charging_pile WHERE id = $1`,
      [pileId, state],
    );
  }

  async setStates(m: EntityManager, pileIds: number[], state: GatewayPileState): Promise<void> {
    await m.query(
      `SELECT gateway_set_pile_state(array_agg(charge_point_id::text), $2) FROM charging_pile WHERE id = ANY($1::int[])`,
      [pileIds, state],
    );
  }

  /**
   * A removed or renamed pile can no longer authenticate: the row stays as a disabled tombstone without a
   * password (the gateway's cache sees updates within its refresh interval, but deletions only on a full
   * reload).
   */
  async retire(m: EntityManager, chargePointId: string): Promise<void> {
    await m.query(`SELECT gateway_retire_pile($1)`, [chargePointId]);
  }

  async unknownPage(page: number, size: number): Promise<{ list: UnknownPileAttempt[]; total: number }> {
    const [{ total }] = (await this.db.query(
      `SELECT count(DISTINCT u.charge_point_id)::int AS total FROM gateway_unknown_pile_attempt_v u WHERE ${UNREGISTERED}`,
    )) as { total: number }[];
    return { total, list: await this.unknownAttempts(size, (page - 1) * size) };
  }

  /**
   * Unregistered charge points, most recently seen first, in one read (an export): paging would skip or
   * repeat rows, as every new attempt of a pile moves it to the top while the pages are read.
   */
  async unknownAttempts(limit: number, offset = 0): Promise<UnknownPileAttempt[]> {
    const rows = (await this.db.query(
      `SELECT u.charge_point_id, array_agg(u.remote_address ORDER BY u.last_seen_at DESC) AS remote_addresses,
              sum(u.attempts)::int AS attempts, min(u.first_seen_at) AS first_seen_at, max(u.last_seen_at) AS last_seen_at
         FROM gateway_unknown_pile_attempt_v u WHERE ${UNREGISTERED}
        GROUP BY u.charge_point_id ORDER BY max(u.last_seen_at) DESC, u.charge_point_id LIMIT $1 OFFSET $2`,
      [limit, offset],
    )) as Record<string, unknown>[];
    return rows.map((r) => ({
      chargePointId: String(r['charge_point_id']),
      remoteAddresses: (r['remote_addresses'] as string[]).filter(Boolean),
      attempts: Number(r['attempts']),
      firstSeenAt: new Date(r['first_seen_at'] as string).toISOString(),
      lastSeenAt: new Date(r['last_seen_at'] as string).toISOString(),
    }));
  }

  async hasUnknownAttempt(chargePointId: string): Promise<boolean> {
    const rows = (await this.db.query(
      `SELECT 1 FROM gateway_unknown_pile_attempt_v WHERE charge_point_id = $1 LIMIT 1`,
      [chargePointId],
    )) as unknown[];
    return rows.length > 0;
  }

  async forgetUnknown(m: EntityManager, chargePointId: string): Promise<void> {
    await m.query(`SELECT gateway_forget_unknown_pile($1)`, [chargePointId]);
  }
}
