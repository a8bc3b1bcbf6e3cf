import { Injectable } from '@nestjs/common';
import { MsgPermissions } from '@voltdepot/shared-contracts';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Who receives realtime stop notices: every enabled user holding the `msg:stopNotice` permission through
 * a role (seeded for admin and operator; grant it to other roles in role management).
 */
@Injectable()
export class StopNoticeReceiverRepository {
  constructor(private readonly db: DataSource) {}

  async receiverIds(manager?: EntityManager): Promise<number[]> {
    const rows = (await (manager ?? this.db).query(
      `SELECT DISTINCT u.id::int AS id
         FROM sys_user u
         JOIN sys_user_role ur ON ur.user_id = u.id
         JOIN sys_role_resource rr ON rr.role_id = ur.role_id
         JOIN sys_resource r ON r.id = rr.resource_id
        WHERE u.enabled AND r.code = $1`,
      [MsgPermissions.StopNotice],
    )) as { id: number }[];
    return rows.map((r) => r.id);
  }
}
