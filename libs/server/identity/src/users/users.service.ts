import { Inject, Injectable } from '@nestjs/common';
import type { AuthPrincipal } from '@voltdepot/server-core';
import { AuthException } from '@voltdepot/server-core';
import { AuthErrorCodes, GridPage, IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { SessionService } from '../auth/session.service';
import { IdentityException } from '../identity.exception';
import { DataScope, DataScopeService } from '../shared/data-scope';
import { PasswordHasher } from '../shared/password-hasher';
import { OrganizationAccess } from '../shared/scope-guard.service';
import { isUniqueViolation } from '../shared/sql';
import type { CopyUserDto, CreateUserDto, UpdateUserDto, UserQuery, UserView } from './user.dto';
import { UserRepository } from './user.repository';

/** Users: every read and write is confined to the caller's data scope (others look non-existent). */
/** What the service asks of the repository (its unit test fakes exactly this). */
export type UserStore = Pick<
  UserRepository,
  | 'page'
  | 'viewById'
  | 'findById'
  | 'insert'
  | 'update'
  | 'delete'
  | 'setPassword'
  | 'setTotp'
  | 'roleIdsOf'
  | 'setRoles'
  | 'existingRoleIds'
>;

@Injectable()
export class UsersService {
  constructor(
    @Inject(UserRepository) private readonly users: UserStore,
    @Inject(DataScopeService) private readonly scopes: Pick<DataScopeService, 'scopeOf'>,
    private readonly orgAccess: OrganizationAccess,
    @Inject(PasswordHasher) private readonly hasher: Pick<PasswordHasher, 'hash' | 'verify'>,
    @Inject(SessionService) private readonly sessions: Pick<SessionService, 'revokeAllOf'>,
  ) {}

  async page(me: AuthPrincipal, query: UserQuery, page: number, size: number): Promise<GridPage<UserView>> {
    return this.users.page(await this.scopes.scopeOf(me.userId), query, page, size);
  }

  async get(me: AuthPrincipal, id: number): Promise<UserView> {
    return this.visible(await this.scopes.scopeOf(me.userId), id);
  }

  async create(me: AuthPrincipal, dto: CreateUserDto): Promise<UserView> {
    const scope = await this.scopes.scopeOf(me.userId);
    await this.orgAccess.assertInScope(scope, [dto.organizationId]);
    await this.assertRolesExist(dto.roleIds ?? []);
    const id = await this.insertUnique(dto.username, () =>
      this.hasher.hash(dto.password).then((passwordHash) =>
        this.users.insert(
          {
            username: dto.username,
            passwordHash,
            realName: dto.realName,
            phone: dto.phone ?? null,
            email: dto.email ?? null,
            organizationId: dto.organizationId,
            enabled: dto.enabled ?? true,
          },
          dto.roleIds ?? [],
        ),
      ),
    );
    return this.visible(scope, id);
  }

  async update(me: AuthPrincipal, id: number, dto: UpdateUserDto): Promise<UserView> {
    const scope = await this.scopes.scopeOf(me.userId);
    await this.visible(scope, id);
    if (dto.organizationId !== undefined) await this.orgAccess.assertInScope(scope, [dto.organizationId]);
    if (dto.roleIds !== undefined) await this.assertRolesExist(dto.roleIds);
    const { roleIds, ...changes } = dto;
    await this.users.update(id, changes, roleIds);
    return this.visible(await this.scopes.scopeOf(me.userId), id);
  }

  async remove(me: AuthPrincipal, id: number): Promise<void> {
    await this.visible(await this.scopes.scopeOf(me.userId), id);
    this.assertNotSelf(me, id, 'delete');
    await this.sessions.revokeAllOf(id);
    await this.users.delete(id);
  }

  async setEnabled(me: AuthPrincipal, id: number, enabled: boolean): Promise<UserView> {
    const scope = await this.scopes.scopeOf(me.userId);
    await this.visible(scope, id);
    if (!enabled) this.assertNotSelf(me, id, 'disable');
    await this.users.update(id, { enabled });
    if (!enabled) await this.sessions.revokeAllOf(id);
    return this.visible(scope, id);
  }

  async resetPassword(me: AuthPrincipal, id: number, password: string): Promise<void> {
    await this.visible(await this.scopes.scopeOf(me.userId), id);
    await this.users.setPassword(id, await this.hasher.hash(password));
    await this.sessions.revokeAllOf(id);
  }

  /** A new user in the same organisation with the same roles; contact details are not copied. */
  async copy(me: AuthPrincipal, id: number, dto: CopyUserDto): Promise<UserView> {
    const scope = await this.scopes.scopeOf(me.userId);
    const source = await this.visible(scope, id);
    const newId = await this.insertUnique(dto.username, async () =>
      this.users.insert(
        {
          username: dto.username,
          passwordHash: await this.hasher.hash(dto.password),
          realName: dto.realName,
          phone: null,
          email: null,
          organizationId: source.organizationId,
          enabled: true,
        },
        source.roleIds,
      ),
    );
    return this.visible(scope, newId);
  }

  async resetTotp(me: AuthPrincipal, id: number): Promise<void> {
    await this.visible(await this.scopes.scopeOf(me.userId), id);
    await this.users.setTotp(id, null, []);
  }

  async roles(me: AuthPrincipal, id: number): Promise<{ roleIds: number[] }> {
    await this.visible(await this.scopes.scopeOf(me.userId), id);
    return { roleIds: await this.users.roleIdsOf(id) };
  }

  async setRoles(me: AuthPrincipal, id: number, roleIds: number[]): Promise<{ roleIds: number[] }> {
    await this.visible(await this.scopes.scopeOf(me.userId), id);
    await this.assertRolesExist(roleIds);
    await this.users.setRoles(id, [...new Set(roleIds)]);
    return { roleIds: await this.users.roleIdsOf(id) };
  }

  /** Other sessions of the user end; the current one stays signed in. */
  async changeOwnPassword(me: AuthPrincipal, oldPassword: string, newPassword: string): Promise<void> {
    const user = await this.users.findById(me.userId);
    if (user === null || !(await this.hasher.verify(user.passwordHash, oldPassword))) {
      throw new AuthException(AuthErrorCodes.WrongPassword, 'Current password is wrong', [
        { field: 'oldPassword', message: 'Current password is wrong' },
      ]);
    }
    await this.users.setPassword(me.userId, await this.hasher.hash(newPassword));
    await this.sessions.revokeAllOf(me.userId, me.sessionId);
  }

  private async visible(scope: DataScope, id: number): Promise<UserView> {
    const user = await this.users.viewById(id, scope);
    if (user === null)
      throw new IdentityException(IdentityErrorCodes.UserNotFound, `User ${id} does not exist`);
    return user;
  }

  private assertNotSelf(me: AuthPrincipal, id: number, action: string): void {
    if (me.userId === id) {
      throw new IdentityException(
        IdentityErrorCodes.CannotModifySelf,
        `You cannot ${action} your own account`,
      );
    }
  }

  private async assertRolesExist(roleIds: number[]): Promise<void> {
    const unique = [...new Set(roleIds)];
    if (unique.length === 0) return;
    const found = new Set(await this.users.existingRoleIds(unique));
    const unknown = unique.filter((id) => !found.has(id));
    if (unknown.length > 0) {
      throw new IdentityException(
        IdentityErrorCodes.RoleNotFound,
        `Role ${unknown.join(', ')} does not exist`,
        [{ field: 'roleIds', message: `Unknown role ${unknown.join(', ')}` }],
      );
    }
  }

  private async insertUnique(username: string, insert: () => Promise<number>): Promise<number> {
    try {
      return await insert();
    } catch (error) {
      if (isUniqueViolation(error, 'sys_user_username_uq')) {
        throw new IdentityException(
          IdentityErrorCodes.UsernameTaken,
          `User name '${username}' is already taken`,
          [{ field: 'username', message: 'Already taken' }],
        );
      }
      throw error;
    }
  }
}
