import { Inject, Injectable } from '@nestjs/common';
import type { AuthPrincipal } from '@voltdepot/server-core';
import { GridPage, IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { IdentityException } from '../identity.exception';
import { OrganizationsService } from '../organizations/organizations.service';
import { ResourcesService } from '../resources/resources.service';
import { DataScopeService } from '../shared/data-scope';
import { OrganizationAccess } from '../shared/scope-guard.service';
import { isUniqueViolation } from '../shared/sql';
import type {
  CreateRoleDto,
  UpdateRoleDto,
  RoleOrganizationsView,
  RoleResourcesView,
  RoleView,
} from './role.dto';
import { RoleRepository } from './role.repository';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type RoleStore = Pick<
  RoleRepository,
  | 'page'
  | 'all'
  | 'byId'
  | 'insert'
  | 'update'
  | 'userCount'
  | 'delete'
  | 'resourceIds'
  | 'existingResourceIds'
  | 'setResources'
  | 'organizationIds'
  | 'setOrganizations'
>;

@Injectable()
export class RolesService {
  constructor(
    @Inject(RoleRepository) private readonly roles: RoleStore,
    @Inject(DataScopeService) private readonly scopes: Pick<DataScopeService, 'scopeOf'>,
    private readonly orgAccess: OrganizationAccess,
    @Inject(ResourcesService) private readonly resourceTree: Pick<ResourcesService, 'tree'>,
    @Inject(OrganizationsService) private readonly organizationTree: Pick<OrganizationsService, 'tree'>,
  ) {}

  page(filter: { code?: string; name?: string }, page: number, size: number): Promise<GridPage<RoleView>> {
    return this.roles.page(filter, page, size);
  }

  all(): Promise<RoleView[]> {
    return this.roles.all();
  }

  async get(id: number): Promise<RoleView> {
    const role = await this.roles.byId(id);
    if (role === null)
      throw new IdentityException(IdentityErrorCodes.RoleNotFound, `Role ${id} does not exist`);
    return role;
  }

  async create(dto: CreateRoleDto): Promise<RoleView> {
    const id = await this.unique(dto.code, () =>
      this.roles.insert({ code: dto.code, name: dto.name, description: dto.description ?? null }),
    );
    return this.get(id);
  }

  async update(id: number, dto: UpdateRoleDto): Promise<RoleView> {
    const role = await this.get(id);
    if (role.builtin && dto.code !== undefined && dto.code !== role.code) {
      throw new IdentityException(
        IdentityErrorCodes.RoleBuiltin,
        `The code of built-in role '${role.code}' cannot change`,
      );
    }
    await this.unique(dto.code ?? role.code, () => this.roles.update(id, dto));
    return this.get(id);
  }

  async remove(id: number): Promise<void> {
    const role = await this.get(id);
    if (role.builtin) {
      throw new IdentityException(
        IdentityErrorCodes.RoleBuiltin,
        `Built-in role '${role.code}' cannot be deleted`,
      );
    }
    const users = await this.roles.userCount(id);
    if (users > 0) {
      throw new IdentityException(
        IdentityErrorCodes.RoleInUse,
        `Role '${role.code}' is assigned to ${users} user(s); remove it from them first`,
      );
    }
    await this.roles.delete(id);
  }

  async resources(id: number): Promise<{ resourceIds: number[] }> {
    await this.get(id);
    return { resourceIds: await this.roles.resourceIds(id) };
  }

  /** The menu-authorisation dialog: the role's resources and the tree to tick them in. */
  async resourcesWithTree(id: number): Promise<RoleResourcesView> {
    const { resourceIds } = await this.resources(id);
    return { resourceIds, tree: await this.resourceTree.tree() };
  }

  async setResources(id: number, resourceIds: number[]): Promise<{ resourceIds: number[] }> {
    await this.get(id);
    const unique = [...new Set(resourceIds)];
    const found = new Set(await this.roles.existingResourceIds(unique));
    const unknown = unique.filter((r) => !found.has(r));
    if (unknown.length > 0) {
      throw new IdentityException(
        IdentityErrorCodes.ResourceNotFound,
        `Resource ${unknown.join(', ')} does not exist`,
        [{ field: 'resourceIds', message: `Unknown resource ${unknown.join(', ')}` }],
      );
    }
    await this.roles.setResources(id, unique);
    return this.resources(id);
  }

  async organizations(id: number): Promise<{ organizationIds: number[] }> {
    await this.get(id);
    return { organizationIds: await this.roles.organizationIds(id) };
  }

  /** The data-authorisation dialog: the role's roots and the caller's subtrees to choose from. */
  async organizationsWithTree(me: AuthPrincipal, id: number): Promise<RoleOrganizationsView> {
    const { organizationIds } = await this.organizations(id);
    return { organizationIds, tree: await this.organizationTree.tree(me) };
  }

  /** A caller may only grant organisations inside their own data scope. */
  async setOrganizations(
    me: AuthPrincipal,
    id: number,
    organizationIds: number[],
  ): Promise<{ organizationIds: number[] }> {
    await this.get(id);
    const unique = [...new Set(organizationIds)];
    await this.orgAccess.assertInScope(await this.scopes.scopeOf(me.userId), unique, 'organizationIds');
    await this.roles.setOrganizations(id, unique);
    return this.organizations(id);
  }

  private async unique<T>(code: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, 'sys_role_code_uq')) {
        throw new IdentityException(
          IdentityErrorCodes.RoleCodeTaken,
          `Role code '${code}' is already taken`,
          [{ field: 'code', message: 'Already taken' }],
        );
      }
      throw error;
    }
  }
}
