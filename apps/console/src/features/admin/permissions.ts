/** Resource codes of the administration screens (seeded by the identity migration). */
export const ADMIN_PERMISSIONS = {
  user: {
    menu: 'sys:user',
    query: 'sys:user:query',
    add: 'sys:user:add',
    edit: 'sys:user:edit',
    delete: 'sys:user:delete',
    enable: 'sys:user:enable',
    resetPassword: 'sys:user:resetPassword',
    copy: 'sys:user:copy',
    role: 'sys:user:role',
  },
  role: {
    menu: 'sys:role',
    query: 'sys:role:query',
    add: 'sys:role:add',
    edit: 'sys:role:edit',
    delete: 'sys:role:delete',
    menuAuth: 'sys:role:menuAuth',
    dataAuth: 'sys:role:dataAuth',
  },
  org: {
    menu: 'sys:org',
    query: 'sys:org:query',
    add: 'sys:org:add',
    edit: 'sys:org:edit',
    delete: 'sys:org:delete',
  },
  resource: {
    menu: 'sys:resource',
    query: 'sys:resource:query',
    add: 'sys:resource:add',
    edit: 'sys:resource:edit',
    delete: 'sys:resource:delete',
  },
  dict: {
    menu: 'sys:dict',
    add: 'sys:dict:add',
    edit: 'sys:dict:edit',
    delete: 'sys:dict:delete',
  },
  /** Platform settings, system parameters and third-party settings share the settings API's codes. */
  config: {
    menu: 'sys:config',
    parameterMenu: 'sys:parameter',
    thirdPartyMenu: 'sys:thirdParty',
    query: 'sys:config:query',
    edit: 'sys:config:edit',
  },
} as const;
