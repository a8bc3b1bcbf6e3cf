import { MsgPermissions } from '@voltdepot/shared-contracts';

/**
 * The message-centre screens and their buttons: menus seeded by the identity migration, buttons by
 * 1763950000000-msg-resources. The send log is a tab of the event screen, read with the event permission
 * (which is what msg-center checks).
 */
export const MSG_PERMISSIONS = {
  config: {
    menu: MsgPermissions.Config,
    add: 'msg:config:add',
    edit: 'msg:config:edit',
    delete: 'msg:config:delete',
  },
  template: {
    menu: MsgPermissions.Template,
    add: 'msg:template:add',
    edit: 'msg:template:edit',
    delete: 'msg:template:delete',
  },
  group: {
    menu: MsgPermissions.Group,
    add: 'msg:group:add',
    edit: 'msg:group:edit',
    delete: 'msg:group:delete',
  },
  event: {
    menu: MsgPermissions.Event,
    add: 'msg:event:add',
    edit: 'msg:event:edit',
    delete: 'msg:event:delete',
  },
  alerts: {
    menu: MsgPermissions.Alerts,
    add: 'msg:alerts:add',
    edit: 'msg:alerts:edit',
    delete: 'msg:alerts:delete',
  },
} as const;

export type MsgScreen = keyof typeof MSG_PERMISSIONS;
