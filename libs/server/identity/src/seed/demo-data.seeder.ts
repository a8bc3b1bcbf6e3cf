import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IDENTITY_OPTIONS, IdentityOptions } from '../identity.options';
import { PasswordHasher } from '../shared/password-hasher';

/**
 * The demo logins (documented in the README). Created only when missing; never overwritten, except that a
 * demo user still in its former organisation (`movedFrom`, never edited since) moves to its new one.
 */
export const DEMO_USERS: readonly {
  username: string;
  password: string;
  realName: string;
  org: string;
  role: string;
  movedFrom?: string;
}[] = [
  { username: 'admin', password: 'Admin@123456', realName: 'Administrator', org: 'ROOT', role: 'admin' },
  { username: 'operator', password: 'Demo@123456', realName: 'Operator Staff', org: 'FZ', role: 'operator' },
  {
    username: 'maintainer',
    password: 'Demo@123456',
    realName: 'Maintenance Staff',
    org: 'HF',
    role: 'maintainer',
  },
  // The demo buses run from the Hefei depots, so their fleet manager works there.
  {
    username: 'fleet',
    password: 'Demo@123456',
    realName: 'Fleet Manager',
    org: 'HF',
    role: 'fleet_manager',
    movedFrom: 'FZ',
  },
];

@Injectable()
export class DemoDataSeeder implements OnApplicationBootstrap {
  constructor(
    private readonly db: DataSource,
    private readonly hasher: PasswordHasher,
    @Inject(IDENTITY_OPTIONS) private readonly options: IdentityOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.options.seedDemoData) return;
    // The database may still be connecting (or down): wait a little, never block start-up on it.
    for (let attempt = 0; attempt < 20 && !this.db.isInitialized; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (!this.db.isInitialized) return;
    await this.seed();
  }

  async seed(): Promise<void> {
    for (const demo of DEMO_USERS) {
      const exists = (await this.db.query(`SELECT 1 FROM sys_user WHERE lower(username) = $1`, [
        demo.username,
      ])) as unknown[];
      if (exists.length > 0) {
        if (demo.movedFrom) await this.move(demo.username, demo.movedFrom, demo.org);
        continue;
      }
      const hash = await this.hasher.hash(demo.password);
      await this.db.query(
        `WITH inserted AS (
           INSERT INTO sys_user (username, password_hash, real_name, organization_id, password_changed_at)
           SELECT $1, $2, $3, o.id, now() FROM sys_organization o WHERE o.code = $4
           ON CONFLICT ((lower(username))) DO NOTHING RETURNING id)
         INSERT INTO sys_user_role (user_id, role_id)
         SELECT i.id, r.id FROM inserted i, sys_role r WHERE r.code = $5`,
        [demo.username, hash, demo.realName, demo.org, demo.role],
      );
    }
  }

  private async move(username: string, from: string, to: string): Promise<void> {
    await this.db.query(
      `UPDATE sys_user u SET organization_id = target.id
         FROM sys_organization source, sys_organization target
        WHERE lower(u.username) = $1 AND source.code = $2 AND target.code = $3
          AND u.organization_id = source.id AND u.updated_at = u.created_at`,
      [username, from, to],
    );
  }
}
