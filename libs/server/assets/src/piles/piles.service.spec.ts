import type { AuthPrincipal } from '@voltdepot/server-core';
import { InMemoryTable, inMemoryTransaction } from '@voltdepot/server-testing';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetValues } from '../shared/asset-definition';
import { pileDefinition } from './piles.definition';
import type { GatewayPileState } from './gateway-registry.repository';
import { PilesService, type GatewayRegistry, type HostGrid, type HostStore } from './piles.service';

type Host = {
  id: number;
  chargePointId: string;
  deviceStatus: number;
  organizationId: number;
  deliveredAt: Date | null;
  values?: AssetValues;
};
type RegistryRow = { id: number; pileId: number; state: GatewayPileState };

/** Hosts (those of organisation 1 visible to the caller), the gateway's registry and its unknown piles. */
class FakeHosts implements HostGrid, HostStore, GatewayRegistry {
  readonly def = pileDefinition;
  readonly hosts = new InMemoryTable<Host>({ charging_pile_charge_point_id_uq: (h) => h.chargePointId });
  readonly registry = new InMemoryTable<RegistryRow>({ registry_pile_uq: (r) => r.pileId });
  readonly unknown = new Set<string>();

  async scopeOf() {
    return { rootIds: [1], pathPatterns: ['/1/%'] };
  }
  async visible(_scope: unknown, id: number) {
    const host = this.hosts.get(id);
    if (!host || host.organizationId !== 1)
      throw new AssetsException(AssetsErrorCode.NotFound, `Host ${id} does not exist`);
    return { ...host };
  }
  async create(_me: AuthPrincipal, values: AssetValues) {
    const host = this.hosts.insert({
      chargePointId: String(values['chargePointId']),
      deviceStatus: Number(values['deviceStatus']),
      organizationId: 1,
      deliveredAt: null,
      values,
    });
    return { ...host };
  }
  transaction<T>(work: (m: never) => Promise<T>): Promise<T> {
    return inMemoryTransaction([this.hosts, this.registry], work);
  }
  async visibleIds(_m: unknown, _def: unknown, ids: number[]) {
    return new Set(ids.filter((id) => this.hosts.get(id)?.organizationId === 1));
  }
  async update(_m: unknown, _def: unknown, id: number, values: Record<string, unknown>) {
    const changes: Partial<Host> = {};
    if ('device_status' in values) changes.deviceStatus = Number(values['device_status']);
    if ('delivered_at' in values) changes.deliveredAt = values['delivered_at'] as Date;
    this.hosts.update(id, changes);
  }
  async setStates(_m: unknown, pileIds: number[], state: GatewayPileState) {
    for (const pileId of pileIds) await this.syncPile(_m, pileId, state);
  }
  async syncPile(_m: unknown, pileId: number, state: GatewayPileState) {
    const row = this.registry.find((r) => r.pileId === pileId);
    if (row) this.registry.update(row.id, { state });
    else this.registry.insert({ pileId, state });
  }
  async unknownPage() {
    return { list: [], total: 0 };
  }
  async unknownAttempts() {
    return [];
  }
  async hasUnknownAttempt(chargePointId: string) {
    return this.unknown.has(chargePointId);
  }
  async forgetUnknown(_m: unknown, chargePointId: string) {
    this.unknown.delete(chargePointId);
  }

  stateOf(pileId: number) {
    return this.registry.find((r) => r.pileId === pileId)?.state;
  }
}

const me = { userId: 1, username: 'admin' } as AuthPrincipal;

function setup() {
  const fake = new FakeHosts();
  const service = new PilesService(fake, fake, fake);
  const host = (deviceStatus: number, organizationId = 1) =>
    fake.hosts.insert({
      chargePointId: `CP-${fake.hosts.size + 1}`,
      deviceStatus,
      organizationId,
      deliveredAt: null,
    }).id;
  return { fake, service, host };
}

describe('PilesService', () => {
  it.each<[boolean, number, GatewayPileState]>([
    [true, 50, 'active'],
    [false, 5, 'disabled'],
  ])(
    'sets enabled=%s: device status %s on every host, %s in the gateway registry',
    async (enabled, status, state) => {
      const { fake, service, host } = setup();
      const ids = [host(1), host(enabled ? 5 : 50)];
      await expect(service.setEnabled(me, [...ids, ids[0]], enabled)).resolves.toEqual({ updated: 2 });
      expect(ids.map((id) => fake.hosts.get(id)?.deviceStatus)).toEqual([status, status]);
      expect(ids.map((id) => fake.stateOf(id))).toEqual([state, state]);
    },
  );

  it.each([
    ['enabling', (s: PilesService, ids: number[]) => s.setEnabled(me, ids, true)],
    ['delivering', (s: PilesService, ids: number[]) => s.deliver(me, ids)],
  ])(
    'refuses %s when any host is missing or outside the scope (404 naming them), changing none',
    async (_case, act) => {
      const { fake, service, host } = setup();
      const mine = host(5);
      const foreign = host(5, 2);
      await expect(act(service, [mine, foreign, 99])).rejects.toMatchObject({
        code: AssetsErrorCode.NotFound,
        details: [{ field: 'ids', message: `Charging host ${foreign}, 99 does not exist` }],
      });
      expect(fake.hosts.get(mine)).toMatchObject({ deviceStatus: 5, deliveredAt: null });
      expect(fake.registry.size).toBe(0);
    },
  );

  it("delivers each host's own state to the registry and records when", async () => {
    const { fake, service, host } = setup();
    const [active, building] = [host(50), host(1)];
    const { deliveredAt } = await service.deliver(me, [active, building]);
    expect([fake.stateOf(active), fake.stateOf(building)]).toEqual(['active', 'pending']);
    expect(fake.hosts.get(active)?.deliveredAt?.toISOString()).toBe(deliveredAt);
  });

  describe('registering an unknown pile', () => {
    it('makes a host under construction named after its id, with a generated password, and forgets the attempt', async () => {
      const { fake, service } = setup();
      const cp = 'DEPOT-NORTH-PILE-000123456789-XYZ';
      fake.unknown.add(cp);
      const { pile, ocppPassword } = await service.register(me, cp, {});
      expect(ocppPassword).toMatch(/^[\w-]{24}$/);
      expect(fake.hosts.get(pile['id'] as number)?.values).toMatchObject({
        chargePointId: cp,
        name: cp.slice(0, 32),
        number: cp.slice(0, 16),
        deviceStatus: 1,
        ocppPassword,
      });
      expect(fake.unknown.has(cp)).toBe(false);
    });

    it('keeps a password and names given by the operator', async () => {
      const { fake, service } = setup();
      fake.unknown.add('CP-9');
      const given = { name: 'North 9', number: 'N9', ocppPassword: 'pile-secret-0123456789' };
      const { pile, ocppPassword } = await service.register(me, 'CP-9', given);
      expect(ocppPassword).toBe(given.ocppPassword);
      expect(fake.hosts.get(pile['id'] as number)?.values).toMatchObject(given);
    });

    it('refuses a charge point that never tried to connect (404)', async () => {
      const { fake, service } = setup();
      await expect(service.register(me, 'CP-X', {})).rejects.toMatchObject({
        code: AssetsErrorCode.UnknownPileNotFound,
      });
      expect(fake.hosts.size).toBe(0);
    });

    it('keeps the attempt when the host cannot be created', async () => {
      const { fake, service, host } = setup();
      host(50);
      fake.unknown.add('CP-1');
      await expect(service.register(me, 'CP-1', {})).rejects.toMatchObject({ code: '23505' });
      expect(fake.unknown.has('CP-1')).toBe(true);
    });
  });
});
