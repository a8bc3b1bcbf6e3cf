import { DynamicModule, Inject, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { RedisImportProgressStore } from '@voltdepot/server-spreadsheet';
import Redis from 'ioredis';
import { AuthController } from './auth/auth.controller';
import { AuthService } from './auth/auth.service';
import { CaptchaService } from './auth/captcha.service';
import { LoginThrottleService } from './auth/login-throttle.service';
import { SessionService } from './auth/session.service';
import { AdminTotpPolicy } from './auth/admin-totp.policy';
import { TotpController } from './auth/totp.controller';
import { TotpEnrolmentTickets } from './auth/totp-enrolment';
import { TotpEnrolmentController } from './auth/totp-enrolment.controller';
import { TotpService } from './auth/totp.service';
import { CurrentUserController } from './current-user/current-user.controller';
import { CurrentUserService } from './current-user/current-user.service';
import { DictionariesController } from './dictionaries/dictionaries.controller';
import { DictionariesService } from './dictionaries/dictionaries.service';
import { DictRepository } from './dictionaries/dict.repository';
import { FavoriteRepository } from './favorites/favorite.repository';
import { FavoritesController } from './favorites/favorites.controller';
import { IDENTITY_OPTIONS, IDENTITY_REDIS, IdentityOptions } from './identity.options';
import { LogsController } from './logs/logs.controller';
import { OperationLogModule } from './logs/operation-log.module';
import { OrganizationRepository } from './organizations/organization.repository';
import { OrganizationsController } from './organizations/organizations.controller';
import { OrganizationsService } from './organizations/organizations.service';
import {
  PlatformConfigController,
  PublicPlatformConfigController,
} from './platform-config/platform-config.controller';
import { PlatformConfigRepository } from './platform-config/platform-config.repository';
import { PlatformConfigService } from './platform-config/platform-config.service';
import { ResourceRepository } from './resources/resource.repository';
import { ResourcesController } from './resources/resources.controller';
import { ResourcesService } from './resources/resources.service';
import { RoleRepository } from './roles/role.repository';
import { RolesController } from './roles/roles.controller';
import { RolesService } from './roles/roles.service';
import { DemoDataSeeder } from './seed/demo-data.seeder';
import { DataScopeService } from './shared/data-scope';
import { OrganizationLookupRepository } from './shared/organization-lookup.repository';
import { PasswordHasher } from './shared/password-hasher';
import { OrganizationAccess } from './shared/scope-guard.service';
import { UserRepository } from './users/user.repository';
import { UsersController } from './users/users.controller';
import { UsersService } from './users/users.service';
import { USER_IMPORT_PROGRESS, UsersImportService } from './users/users-import.service';
import { UsersSpreadsheetController } from './users/users-spreadsheet.controller';

@Injectable()
class IdentityRedisCloser implements OnApplicationShutdown {
  constructor(@Inject(IDENTITY_REDIS) private readonly redis: Redis) {}
  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/**
 * Sign-in, sessions and administration. Needs a global `DataSource` (TypeORM) from the app and the
 * shared `AuthGuardModule` (for ACCESS_TOKEN_VERIFIER). Records an operation log entry for every
 * mutating request of the app.
 */
@Module({})
export class IdentityModule {
  static forRoot(options: IdentityOptions): DynamicModule {
    return {
      module: IdentityModule,
      imports: [OperationLogModule],
      controllers: [
        AuthController,
        TotpController,
        TotpEnrolmentController,
        CurrentUserController,
        // Before UsersController: GET api/user/export is not a user id.
        UsersSpreadsheetController,
        UsersController,
        RolesController,
        OrganizationsController,
        ResourcesController,
        DictionariesController,
        PublicPlatformConfigController,
        PlatformConfigController,
        LogsController,
        FavoritesController,
      ],
      providers: [
        { provide: IDENTITY_OPTIONS, useValue: options },
        {
          provide: IDENTITY_REDIS,
          useFactory: () =>
            // Connection errors surface on the failing command (and in /health); no unhandled 'error' events.
            new Redis(options.redisUrl, { keyPrefix: options.redisKeyPrefix, maxRetriesPerRequest: 2 }).on(
              'error',
              () => undefined,
            ),
        },
        IdentityRedisCloser,
        PasswordHasher,
        DataScopeService,
        OrganizationLookupRepository,
        OrganizationAccess,
        CaptchaService,
        LoginThrottleService,
        SessionService,
        TotpService,
        AdminTotpPolicy,
        TotpEnrolmentTickets,
        AuthService,
        UserRepository,
        UsersService,
        UsersImportService,
        {
          provide: USER_IMPORT_PROGRESS,
          inject: [IDENTITY_REDIS],
          useFactory: (redis: Redis) => new RedisImportProgressStore(redis),
        },
        RoleRepository,
        RolesService,
        OrganizationRepository,
        OrganizationsService,
        ResourceRepository,
        ResourcesService,
        DictRepository,
        DictionariesService,
        PlatformConfigRepository,
        PlatformConfigService,
        FavoriteRepository,
        CurrentUserService,
        DemoDataSeeder,
      ],
      exports: [SessionService, DataScopeService],
    };
  }
}
