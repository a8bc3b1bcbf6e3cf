import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The seeded roles get what their job needs (issue #24, "Demo roles"):
 * - maintenance staff look after the piles: station and pile monitoring and the pile commands, besides
 *   the equipment, basic data and alarms they had;
 * - the fleet manager looks after buses, not accounts: the bus list and map, the station monitor (where
 *   the buses charge), the orders of the buses, and the vehicle, fleet, line and card grids (read and
 *   export); no longer System → Users and Organizations.
 * Only these grants are added or taken; whatever else an administrator changed in these roles stays.
 */
const GRANTS: Record<string, { add: string[]; remove: string[] }> = {
  maintainer: {
    add: ['operation', 'operation:stationMonitor', 'operation:pileMonitor', 'pile:command'],
    remove: [],
  },
  fleet_manager: {
    add: [
      'operation:stationMonitor',
      'operation:orderManage',
      'operation:orderManage:orderQuery',
      'charging_order:view',
      'charging_order:export',
      'basic',
      'basic:vehicle',
      'basic:vehicle:query',
      'basic:vehicle:export',
      'basic:fleet',
      'basic:fleet:query',
      'basic:fleet:export',
      'basic:line',
      'basic:line:query',
      'basic:cardConfig',
      'basic:cardConfig:query',
    ],
    remove: ['sys', 'sys:user', 'sys:user:query', 'sys:org', 'sys:org:query'],
  },
};

async function grant(q: QueryRunner, role: string, codes: string[]): Promise<void> {
  await q.query(
    `INSERT INTO sys_role_resource (role_id, resource_id)
     SELECT r.id, s.id FROM sys_role r, sys_resource s WHERE r.code = $1 AND s.code = ANY($2::text[])
     ON CONFLICT DO NOTHING`,
    [role, codes],
  );
}

async function revoke(q: QueryRunner, role: string, codes: string[]): Promise<void> {
  await q.query(
    `DELETE FROM sys_role_resource rr USING sys_role r, sys_resource s
      WHERE rr.role_id = r.id AND rr.resource_id = s.id AND r.code = $1 AND s.code = ANY($2::text[])`,
    [role, codes],
  );
}

export class RoleGrantsByJob1764170000000 implements MigrationInterface {
  name = 'RoleGrantsByJob1764170000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [role, { add, remove }] of Object.entries(GRANTS)) {
      await grant(q, role, add);
      await revoke(q, role, remove);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [role, { add, remove }] of Object.entries(GRANTS)) {
      await revoke(q, role, add);
      await grant(q, role, remove);
    }
  }
}
