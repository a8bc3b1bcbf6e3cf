export * from './identity.module';
export * from './identity.options';
export * from './identity.exception';
export { IdentityPermissionLookup } from './shared/permission.repository';
export { DataScopeService, type DataScope } from './shared/data-scope';
export { SessionService } from './auth/session.service';
export { AdminTotpPolicy } from './auth/admin-totp.policy';
export { OperationLogModule } from './logs/operation-log.module';
export { DEMO_USERS } from './seed/demo-data.seeder';
export type { UserView } from './users/user.dto';
export type { RoleView, RoleResourcesView, RoleOrganizationsView } from './roles/role.dto';
export type { OrganizationNode } from './organizations/organization.dto';
export type { ResourceNode, ResourceType } from './resources/resource.dto';
export type { DictNode, DictKind } from './dictionaries/dict.dto';
export type { CurrentUserInfo, UserExt } from './current-user/current-user.dto';
export type { OperationLogView, LoginLogView } from './logs/log.dto';
export type { FavoriteView } from './favorites/favorite.dto';
export {
  BusinessTimeZoneReader,
  DEFAULT_BUSINESS_TIME_ZONE,
} from './platform-config/business-time-zone.reader';
