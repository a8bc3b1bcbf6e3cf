import type { AuthPrincipal } from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import { randomBytes } from 'node:crypto';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetView } from '../shared/asset-definition';
import type { AssetCrudService } from '../shared/asset-crud.service';
import type { AssetRepository } from '../shared/asset.repository';
import { gatewayStateOf, type GatewayRegistryRepository } from './gateway-registry.repository';
import type { RegisterUnknownPileDto, UnknownPileAttempt } from './piles.dto';

/** Device status a batch enable / disable sets (business-areas §4). */
export const ENABLED_DEVICE_STATUS = 50;
export const DISABLED_DEVICE_STATUS = 5;

/** What the host actions need of the host grid's service and of the repositories (unit tests fake these). */
export type HostGrid = Pick<AssetCrudService, 'def' | 'scopeOf' | 'visible' | 'create'>;
export type HostStore = Pick<AssetRepository, 'transaction' | 'visibleIds' | 'update'>;
export type GatewayRegistry = Pick<
  GatewayRegistryRepository,
  'setStates' | 'syncPile' | 'unknownPage' | 'unknownAttempts' | 'hasUnknownAttempt' | 'forgetUnknown'
>;

/** Host actions beyond the grid: batch enable/disable and registering a pile the gateway turned away. */
export class PilesService {
  constructor(
    private readonly piles: HostGrid,
    private readonly repository: HostStore,
    private readonly registry: GatewayRegistry,
  ) {}

  async setEnabled(me: AuthPrincipal, ids: number[], enabled: boolean): Promise<{ updated: number }> {
    const unique = [...new Set(ids)];
    const scope = await this.piles.scopeOf(me);
    const deviceStatus = enabled ? ENABLED_DEVICE_STATUS : DISABLED_DEVICE_STATUS;
    await this.repository.transaction(async (m) => {
      const visible = await this.repository.visibleIds(m, this.piles.def, unique, scope);
      const missing = unique.filter((id) => !visible.has(id));
      if (missing.length > 0) {
        const message = `Charging host ${missing.join(', ')} does not exist`;
        throw new AssetsException(AssetsErrorCode.NotFound, message, [{ field: 'ids', message }]);
      }
      for (const id of unique) {
        await this.repository.update(m, this.piles.def, id, { device_status: deviceStatus }, undefined);
      }
      await this.registry.setStates(m, unique, gatewayStateOf(deviceStatus));
    });
    return { updated: unique.length };
  }

  /**
   * Batch delivery: the hosts' settings (state and password hash) are written to the gateway's registry
   * again, which it picks up within its refresh interval, and the time of delivery is kept on the host.
   */
  async deliver(me: AuthPrincipal, ids: number[]): Promise<{ updated: number; deliveredAt: string }> {
    const unique = [...new Set(ids)];
    const scope = await this.piles.scopeOf(me);
    const deliveredAt = new Date();
    await this.repository.transaction(async (m) => {
      const visible = await this.repository.visibleIds(m, this.piles.def, unique, scope);
      const missing = unique.filter((id) => !visible.has(id));
      if (missing.length > 0) {
        const message = `Charging host ${missing.join(', ')} does not exist`;
        throw new AssetsException(AssetsErrorCode.NotFound, message, [{ field: 'ids', message }]);
      }
      for (const id of unique) {
        const pile = await this.piles.visible(scope, id, m);
        await this.registry.syncPile(m, id, gatewayStateOf(Number(pile['deviceStatus'])));
        await this.repository.update(m, this.piles.def, id, { delivered_at: deliveredAt }, undefined);
      }
    });
    return { updated: unique.length, deliveredAt: deliveredAt.toISOString() };
  }

  unknownPage(page: number, size: number): Promise<GridPage<UnknownPileAttempt>> {
    return this.registry.unknownPage(page, size);
  }

  /** The newest `limit` unknown piles, read at once (an export). */
  unknownAttempts(limit: number): Promise<UnknownPileAttempt[]> {
    return this.registry.unknownAttempts(limit);
  }

  /**
   * One click: the pile that tried to connect becomes a host under construction (the gateway answers its
   * BootNotification with Pending until the host is set to normal), with a fresh password shown once.
   */
  async register(
    me: AuthPrincipal,
    chargePointId: string,
    dto: RegisterUnknownPileDto,
  ): Promise<{ pile: AssetView; ocppPassword: string }> {
    if (!(await this.registry.hasUnknownAttempt(chargePointId))) {
      throw new AssetsException(
        AssetsErrorCode.UnknownPileNotFound,
        `No unknown connection attempt from charge point '${chargePointId}'`,
      );
    }
    const ocppPassword = dto.ocppPassword ?? randomBytes(18).toString('base64url');
    const pile = await this.repository.transaction(async (m) => {
      const created = await this.piles.create(
        me,
        {
          name: dto.name ?? chargePointId.slice(0, 32),
          number: dto.number ?? chargePointId.slice(0, 16),
          chargePointId,
          ocppPassword,
          deviceStatus: 1,
          protocolVersion: 'ocpp1.6',
          stationId: dto.stationId,
          organizationId: dto.organizationId,
          supportsReservation: false,
        },
        m,
      );
      await this.registry.forgetUnknown(m, chargePointId);
      return created;
    });
    return { pile, ocppPassword };
  }
}
