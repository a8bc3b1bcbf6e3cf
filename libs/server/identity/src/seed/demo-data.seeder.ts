import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { IDENTITY_OPTIONS, IdentityOptions } from '../identity.options';
import { PasswordHasher } from '../shared/password-hasher';

/** The demo logins (documented in the README). Created only when missing; never overwritten. */
export const DEMO_USERS = [
  { username: 'admin', password: 'Admin@123456', realName: 'Administrator', org: 'ROOT', role: 'admin' },
  { username: 'operator', password: 'Demo@123456', realName: 'Operator Staff', org: 'FZ', role: 'operator' },
  {
    username: 'maintainer',
    password: 'Demo@123456',
    realName: 'Maintenance Staff',
    org: 'HF',
    role: 'maintainer',
  },
  { username: 'fleet', password: 'Demo@123456', realName: 'Fleet Manager', org: 'FZ', role: 'fleet_manager' },
] as const;

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
      if (exists.length > 0) continue;
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
}
