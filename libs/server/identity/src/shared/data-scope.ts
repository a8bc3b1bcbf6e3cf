import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/**
 * The organisation subtrees a user sees: the union of the data authorisations of their roles;
 * a user whose roles authorise none sees their own organisation's subtree.
 */
export type DataScope = {
  /** Root organisation ids of the visible subtrees. */
  rootIds: number[];
  /** `LIKE` patterns over sys_organization.path, e.g. `/1/2/%`. */
  pathPatterns: string[];
};

@Injectable()
export class DataScopeService {
  constructor(private readonly db: DataSource) {}

  async scopeOf(userId: number): Promise<DataScope> {
    const rows = (await this.db.query(
      `SELECT o.id, o.path FROM sys_organization o
        WHERE o.id IN (SELECT ro.organization_id FROM sys_role_organization ro
                         JOIN sys_user_role ur ON ur.role_id = ro.role_id WHERE ur.user_id = $1)
       UNION
       SELECT o.id, o.path FROM sys_user u JOIN sys_organization o ON o.id = u.organization_id
        WHERE u.id = $1 AND NOT EXISTS (SELECT 1 FROM sys_role_organization ro
                         JOIN sys_user_role ur ON ur.role_id = ro.role_id WHERE ur.user_id = $1)`,
      [userId],
    )) as { id: string; path: string }[];
    // Drop subtrees contained in another visible subtree.
    const paths = rows.map((r) => r.path);
    const kept = rows.filter((r) => !paths.some((p) => p !== r.path && r.path.startsWith(p)));
    return { rootIds: kept.map((r) => Number(r.id)), pathPatterns: kept.map((r) => `${r.path}%`) };
  }

  /** Is the organisation (by its path) inside the scope? */
  static contains(scope: DataScope, orgPath: string): boolean {
    return scope.pathPatterns.some((p) => orgPath.startsWith(p.slice(0, -1)));
  }
}
