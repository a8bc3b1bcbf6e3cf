// Config
export * from './config/config.error';
export * from './config/config.module';
export * from './config/env-vars';
export * from './config/load-config';
export * from './config/service-config';
// Logging
export * from './logging/correlation-context';
export * from './logging/correlation.middleware';
export * from './logging/logger';
export * from './logging/nest-logger';
// Errors
export * from './errors/all-exceptions.filter';
export * from './errors/common.exception';
export * from './errors/domain.exception';
export * from './errors/request-body-errors';
export * from './errors/text-input';
export * from './errors/validation.exception';
export * from './errors/zod-issues';
export * from './errors/zod-validation.pipe';
// Auth
export * from './auth/public.decorator';
export * from './auth/permissions.decorator';
export * from './auth/principal';
export * from './auth/auth.exception';
export * from './auth/access-token';
export * from './auth/auth.guard';
export * from './auth/auth-guard.module';
// Health and metrics
export * from './observability/dependency-checks';
export * from './observability/health-check';
export * from './observability/health.service';
export * from './observability/metrics-access';
export * from './observability/http-metrics';
export * from './observability/observability.module';
export * from './observability/observability.options';
// HTTP and bootstrap
export * from './http/express-types';
export * from './http/zod-openapi';
export * from './http/api-schemas';
export * from './http/api-doc.decorator';
export * from './http/openapi-document';
export * from './http/documented-response.check';
export * from './http/routes';
export * from './http/int-param';
export * from './http/security-headers';
export * from './http/bounded-json';
export * from './bootstrap/bootstrap-service';
// Outbound requests to targets users configure
export * from './outbound/outbound-guard';
