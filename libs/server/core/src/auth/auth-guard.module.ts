import {
  DynamicModule,
  Inject,
  Injectable,
  InjectionToken,
  Module,
  ModuleMetadata,
  OnApplicationShutdown,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthErrorCodes, CommonErrorCodes } from '@voltdepot/shared-contracts';
import { CommonException } from '../errors/common.exception';
import Redis from 'ioredis';
import { sessionKey, verifyAccessToken } from './access-token';
import { AuthException } from './auth.exception';
import {
  ACCESS_TOKEN_VERIFIER,
  AccessTokenVerifier,
  AuthGuard,
  PERMISSION_LOOKUP,
  PermissionLookup,
} from './auth.guard';

/** Redis client of the guard (sessions); keys are prefixed with `redisKeyPrefix`. */
export const AUTH_REDIS = Symbol('AUTH_REDIS');

export type AuthGuardModuleOptions = {
  /** JWT_SECRET; at least MIN_JWT_SECRET_LENGTH characters. */
  jwtSecret: string;
  redisUrl: string;
  /** Default `auth:`. Must be the same in every service that shares sessions. */
  redisKeyPrefix?: string;
  /** How this service learns a user's permission codes. */
  permissionLookup: Pick<ModuleMetadata, 'imports'> & {
    inject?: InjectionToken[];
    useFactory: (...deps: never[]) => PermissionLookup | Promise<PermissionLookup>;
  };
};

/** Access tokens are valid only while their session key exists in Redis (logout and revocation delete it). */
export class JwtAccessTokenVerifier implements AccessTokenVerifier {
  constructor(
    private readonly secret: string,
    private readonly redis: Pick<Redis, 'exists'>,
  ) {}

  async verify(token: string) {
    const claims = await verifyAccessToken(token, this.secret);
    let alive: number;
    try {
      alive = await this.redis.exists(sessionKey(claims.sessionId));
    } catch (error) {
      throw new CommonException(CommonErrorCodes.Unavailable, 'Session store unavailable', undefined, {
        cause: error,
      });
    }
    if (alive !== 1) {
      throw new AuthException(AuthErrorCodes.TokenRevoked, 'Session has been revoked');
    }
    return claims;
  }
}

@Injectable()
class AuthRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(AUTH_REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Registers the shared `AuthGuard` globally (APP_GUARD). Import it once in a service's root module:
 *
 * ```ts
 * AuthGuardModule.forRoot({
 *   jwtSecret: config.JWT_SECRET,
 *   redisUrl: config.REDIS_URL,
 *   permissionLookup: { inject: [DataSource], useFactory: (ds: DataSource) => new IdentityPermissionLookup(ds) },
 * })
 * ```
 */
@Module({})
export class AuthGuardModule {
  static forRoot(options: AuthGuardModuleOptions): DynamicModule {
    return {
      module: AuthGuardModule,
      global: true,
      imports: options.permissionLookup.imports ?? [],
      providers: [
        {
          provide: AUTH_REDIS,
          useFactory: () =>
            new Redis(options.redisUrl, {
              keyPrefix: options.redisKeyPrefix ?? 'auth:',
              lazyConnect: false,
              maxRetriesPerRequest: 2,
              // Connection errors surface on the failing command; no unhandled 'error' events.
            }).on('error', () => undefined),
        },
        AuthRedisCloser,
        {
          provide: ACCESS_TOKEN_VERIFIER,
          inject: [AUTH_REDIS],
          useFactory: (redis: Redis) => new JwtAccessTokenVerifier(options.jwtSecret, redis),
        },
        {
          provide: PERMISSION_LOOKUP,
          inject: options.permissionLookup.inject ?? [],
          useFactory: options.permissionLookup.useFactory as (...deps: unknown[]) => PermissionLookup,
        },
        { provide: APP_GUARD, useClass: AuthGuard },
      ],
      exports: [ACCESS_TOKEN_VERIFIER, PERMISSION_LOOKUP, AUTH_REDIS],
    };
  }
}
