export * from './identity.module';
export * from './identity.options';
export * from './identity.exception';
export { IdentityPermissionLookup } from './shared/permission.repository';
export { DataScopeService, type DataScope } from './shared/data-scope';
export { SessionService } from './auth/session.service';
export { OperationLogModule } from './logs/operation-log.module';
export { DEMO_USERS } from './seed/demo-data.seeder';
