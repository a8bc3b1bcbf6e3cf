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
         FROM identity_user_contact_v u
         JOIN identity_user_permission_v p ON p.user_id = u.id
        WHERE u.enabled AND p.permission = $1`,
      [MsgPermissions.StopNotice],
    )) as { id: number }[];
    return rows.map((r) => r.id);
  }
}
