/** react-query keys of the administration screens; a mutation invalidates its area's key. */
export const adminQueryKeys = {
  all: ['admin'] as const,
  users: () => [...adminQueryKeys.all, 'users'] as const,
  userPage: (params: Record<string, unknown>) => [...adminQueryKeys.users(), 'page', params] as const,
  userRoles: (id: number) => [...adminQueryKeys.users(), 'roles', id] as const,
  roles: () => [...adminQueryKeys.all, 'roles'] as const,
  rolePage: (params: Record<string, unknown>) => [...adminQueryKeys.roles(), 'page', params] as const,
  allRoles: () => [...adminQueryKeys.roles(), 'all'] as const,
  roleResources: (id: number) => [...adminQueryKeys.roles(), 'resources', id] as const,
  roleOrganizations: (id: number) => [...adminQueryKeys.roles(), 'organizations', id] as const,
  organizations: () => [...adminQueryKeys.all, 'organizations'] as const,
  resources: () => [...adminQueryKeys.all, 'resources'] as const,
  dictionaries: () => [...adminQueryKeys.all, 'dictionaries'] as const,
  dictType: (code: string) => [...adminQueryKeys.dictionaries(), 'type', code] as const,
  configs: (category: string) => [...adminQueryKeys.all, 'configs', category] as const,
  twoFactor: () => [...adminQueryKeys.all, 'twoFactor'] as const,
};
