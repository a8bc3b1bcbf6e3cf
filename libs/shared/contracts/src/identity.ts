/** Shapes of the administration endpoints (users, roles, organisations, resources, dictionaries, logs). */

export type UserView = {
  id: number;
  username: string;
  realName: string;
  phone: string | null;
  email: string | null;
  organizationId: number;
  organizationName: string;
  enabled: boolean;
  /** The user has a second factor (TOTP) turned on: administrators may reset it. */
  totpEnabled: boolean;
  roleIds: number[];
  createdAt: string;
  updatedAt: string;
};

export type RoleView = {
  id: number;
  code: string;
  name: string;
  description: string | null;
  builtin: boolean;
  createdAt: string;
  updatedAt: string;
};

export type OrganizationNode = {
  id: number;
  parentId: number | null;
  code: string;
  name: string;
  sort: number;
  children: OrganizationNode[];
};

export type ResourceType = 'menu' | 'button';
export type ResourceNode = {
  id: number;
  parentId: number | null;
  type: ResourceType;
  code: string;
  name: string;
  path: string | null;
  icon: string | null;
  sort: number;
  visible: boolean;
  children: ResourceNode[];
};

/**
 * `GET /api/role/{id}/resources` (menu authorisation): what the role holds and the whole resource tree
 * to tick it in, so the dialog needs only `sys:role:menuAuth` (not `sys:resource:query`).
 */
export type RoleResourcesView = { resourceIds: number[]; tree: ResourceNode[] };

/**
 * `GET /api/role/{id}/organizations` (data authorisation): the roots the role sees and the caller's
 * organisation subtrees to choose from, so the dialog needs only `sys:role:dataAuth` (not `sys:org:query`).
 */
export type RoleOrganizationsView = { organizationIds: number[]; tree: OrganizationNode[] };

export type DictKind = 'type' | 'item';
export type DictNode = {
  id: number;
  parentId: number | null;
  kind: DictKind;
  code: string;
  name: string;
  value: string | null;
  sort: number;
  enabled: boolean;
  children: DictNode[];
};

/** `GET /authority/users/currentuser/info`. */
export type CurrentUserInfo = {
  id: number;
  username: string;
  realName: string;
  organizationId: number;
  organizationName: string;
  roles: { id: number; code: string; name: string }[];
  /** Permission codes of menus and buttons the caller holds (e.g. `go_screen`). */
  permissions: string[];
  menus: ResourceNode[];
};

/** `GET /user/getUserExt`. */
export type UserExt = {
  userId: number;
  username: string;
  realName: string;
  phone: string | null;
  email: string | null;
  organizationId: number;
  organizationName: string;
  /** Roots of the organisation subtrees whose data the caller sees. */
  dataScopeOrganizationIds: number[];
  lastLoginAt: string | null;
  /** Two-factor authentication (TOTP) is on for this account. */
  totpEnabled: boolean;
};

export type OperationLogView = {
  id: number;
  userId: number | null;
  username: string | null;
  method: string;
  path: string;
  route: string | null;
  status: number;
  success: boolean;
  ip: string | null;
  userAgent: string | null;
  durationMs: number;
  correlationId: string | null;
  createdAt: string;
};

export type LoginLogView = {
  id: number;
  userId: number | null;
  username: string;
  success: boolean;
  reason: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
};

/** A favourite of the spec: `bId`, `bType`, `name`. */
export type FavoriteView = { id: number; bId: string; bType: string; name: string; createdAt: string };

/** Error codes of the administration area (HTTP status in the server's IdentityException). */
export const IdentityErrorCodes = {
  UserNotFound: 'USER_NOT_FOUND',
  UsernameTaken: 'USER_USERNAME_TAKEN',
  CannotModifySelf: 'USER_CANNOT_MODIFY_SELF',
  RoleNotFound: 'ROLE_NOT_FOUND',
  RoleCodeTaken: 'ROLE_CODE_TAKEN',
  RoleInUse: 'ROLE_IN_USE',
  RoleBuiltin: 'ROLE_BUILTIN',
  OrganizationNotFound: 'ORGANIZATION_NOT_FOUND',
  OrganizationCodeTaken: 'ORGANIZATION_CODE_TAKEN',
  OrganizationNotEmpty: 'ORGANIZATION_NOT_EMPTY',
  OrganizationCycle: 'ORGANIZATION_CYCLE',
  OutOfDataScope: 'ORGANIZATION_OUT_OF_SCOPE',
  ResourceNotFound: 'RESOURCE_NOT_FOUND',
  ResourceCodeTaken: 'RESOURCE_CODE_TAKEN',
  ResourceHasChildren: 'RESOURCE_HAS_CHILDREN',
  ResourceCycle: 'RESOURCE_CYCLE',
  ResourceBadParent: 'RESOURCE_BAD_PARENT',
  DictNotFound: 'DICT_NOT_FOUND',
  DictCodeTaken: 'DICT_CODE_TAKEN',
  DictHasChildren: 'DICT_HAS_CHILDREN',
  DictBadParent: 'DICT_BAD_PARENT',
  ConfigNotFound: 'CONFIG_NOT_FOUND',
  ConfigKeyTaken: 'CONFIG_KEY_TAKEN',
  ConfigBuiltin: 'CONFIG_BUILTIN',
  ConfigValueInvalid: 'CONFIG_VALUE_INVALID',
  FavoriteNotFound: 'FAVORITE_NOT_FOUND',
  FavoriteExists: 'FAVORITE_EXISTS',
} as const;
export type IdentityErrorCode = (typeof IdentityErrorCodes)[keyof typeof IdentityErrorCodes];
