import { Injectable } from '@nestjs/common';
import type { AuthPrincipal } from '@voltdepot/server-core';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { AdminTotpPolicy } from '../auth/admin-totp.policy';
import type { CurrentUserInfo, UserExt } from './current-user.dto';
import { IdentityException } from '../identity.exception';
import { ResourcesService } from '../resources/resources.service';
import { DataScopeService } from '../shared/data-scope';
import { UserRecord, UserRepository } from '../users/user.repository';

@Injectable()
export class CurrentUserService {
  constructor(
    private readonly users: UserRepository,
    private readonly resources: ResourcesService,
    private readonly scopes: DataScopeService,
    private readonly adminTotp: AdminTotpPolicy,
  ) {}

  async info(me: AuthPrincipal): Promise<CurrentUserInfo> {
    const user = await this.user(me);
    return {
      id: user.id,
      username: user.username,
      realName: user.realName,
      organizationId: user.organizationId,
      organizationName: user.organizationName,
      roles: await this.users.rolesOf(user.id),
      permissions: [...me.permissions].sort(),
      menus: await this.resources.menuTreeOf(user.id),
      secondFactorMissing: !user.totpEnabled && (await this.adminTotp.isAdministrator(user.id)),
    };
  }

  async ext(me: AuthPrincipal): Promise<UserExt> {
    const user = await this.user(me);
    return {
      userId: user.id,
      username: user.username,
      realName: user.realName,
      phone: user.phone,
      email: user.email,
      organizationId: user.organizationId,
      organizationName: user.organizationName,
      dataScopeOrganizationIds: (await this.scopes.scopeOf(user.id)).rootIds,
      lastLoginAt: user.lastLoginAt,
      totpEnabled: user.totpEnabled,
    };
  }

  menus(me: AuthPrincipal) {
    return this.resources.menuTreeOf(me.userId);
  }

  private async user(me: AuthPrincipal): Promise<UserRecord> {
    const user = await this.users.findById(me.userId);
    if (user === null)
      throw new IdentityException(IdentityErrorCodes.UserNotFound, `User ${me.userId} does not exist`);
    return user;
  }
}
