import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the identity area publishes for the other areas to read (docs/decisions/0001-table-ownership.md):
 * organisations for data scope, users' contact addresses, roles and their members, who holds which
 * permission, and the dictionaries. Plain projections of one table or a join on keys, so PostgreSQL
 * inlines them and a read through a view uses the tables' own indexes.
 */
export class IdentityReadViews1764100000000 implements MigrationInterface {
  name = 'IdentityReadViews1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE VIEW identity_organization_v AS
        SELECT id, parent_id, code, name, path FROM sys_organization`);
    await q.query(`
      CREATE VIEW identity_user_contact_v AS
        SELECT id, username, real_name, phone, email, organization_id, enabled FROM sys_user`);
    await q.query(`CREATE VIEW identity_role_v AS SELECT id, code, name FROM sys_role`);
    await q.query(`CREATE VIEW identity_user_role_v AS SELECT user_id, role_id FROM sys_user_role`);
    // One row per role that grants the permission: readers wanting users take DISTINCT.
    await q.query(`
      CREATE VIEW identity_user_permission_v AS
        SELECT ur.user_id, r.code AS permission
          FROM sys_user_role ur
          JOIN sys_role_resource rr ON rr.role_id = ur.role_id
          JOIN sys_resource r ON r.id = rr.resource_id`);
    await q.query(`
      CREATE VIEW identity_dict_v AS
        SELECT id, parent_id, kind, code, name, value, sort, enabled FROM sys_dict`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const view of [
      'identity_dict_v',
      'identity_user_permission_v',
      'identity_user_role_v',
      'identity_role_v',
      'identity_user_contact_v',
      'identity_organization_v',
    ])
      await q.query(`DROP VIEW ${view}`);
  }
}
