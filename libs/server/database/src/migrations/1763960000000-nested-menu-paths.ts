import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Menus three levels deep (e.g. appManage:reconciliation:depositRefundDetail) were seeded with a path
 * that kept a ':' (`/appManage:reconciliation/depositRefundDetail`). A menu's path is its code with every
 * ':' written as '/', which is what the console's routes expect.
 */
export class NestedMenuPaths1763960000000 implements MigrationInterface {
  name = 'NestedMenuPaths1763960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE sys_resource SET path = '/' || replace(code, ':', '/')
        WHERE type = 'menu' AND path LIKE '%:%'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // The old form: the parent's code with its ':' kept, then '/', then the last segment.
    await q.query(
      `UPDATE sys_resource
          SET path = '/' || regexp_replace(code, ':([^:]+)$', '/\\1')
        WHERE type = 'menu' AND array_length(string_to_array(code, ':'), 1) > 2`,
    );
  }
}
