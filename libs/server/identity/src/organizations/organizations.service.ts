import { Inject, Injectable } from '@nestjs/common';
import type { AuthPrincipal } from '@voltdepot/server-core';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { IdentityException } from '../identity.exception';
import { DataScope, DataScopeService } from '../shared/data-scope';
import { OrganizationAccess } from '../shared/scope-guard.service';
import { buildTree, isUniqueViolation } from '../shared/sql';
import type { CreateOrganizationDto, UpdateOrganizationDto, OrganizationNode } from './organization.dto';
import { OrganizationRepository, OrganizationRow } from './organization.repository';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type OrganizationStore = Pick<
  OrganizationRepository,
  'inScope' | 'byId' | 'insert' | 'update' | 'hasChildrenOrUsers' | 'delete'
>;

@Injectable()
export class OrganizationsService {
  constructor(
    @Inject(OrganizationRepository) private readonly orgs: OrganizationStore,
    @Inject(DataScopeService) private readonly scopes: Pick<DataScopeService, 'scopeOf'>,
    private readonly orgAccess: OrganizationAccess,
  ) {}

  /** The caller's visible subtrees as a forest. */
  async tree(me: AuthPrincipal): Promise<OrganizationNode[]> {
    const scope = await this.scopes.scopeOf(me.userId);
    const rows = await this.orgs.inScope(scope.pathPatterns);
    const visibleIds = new Set(rows.map((r) => r.id));
    return buildTree(
      rows.map(({ path: _path, ...r }) => ({
        ...r,
        parentId: r.parentId !== null && visibleIds.has(r.parentId) ? r.parentId : null,
      })),
    ) as OrganizationNode[];
  }

  async create(me: AuthPrincipal, dto: CreateOrganizationDto): Promise<OrganizationNode> {
    await this.orgAccess.assertInScope(await this.scopes.scopeOf(me.userId), [dto.parentId], 'parentId');
    const id = await this.unique(dto.code, () =>
      this.orgs.insert({ parentId: dto.parentId, code: dto.code, name: dto.name, sort: dto.sort ?? 0 }),
    );
    return this.node(id);
  }

  async update(me: AuthPrincipal, id: number, dto: UpdateOrganizationDto): Promise<OrganizationNode> {
    const scope = await this.scopes.scopeOf(me.userId);
    const org = await this.visible(scope, id);
    let newParentPath: string | undefined;
    if (dto.parentId !== undefined && dto.parentId !== org.parentId) {
      if (org.parentId === null) {
        throw new IdentityException(
          IdentityErrorCodes.OrganizationCycle,
          'The root organization cannot be moved',
        );
      }
      await this.orgAccess.assertInScope(scope, [dto.parentId], 'parentId');
      const parent = (await this.orgs.byId(dto.parentId))!;
      if (parent.path.startsWith(org.path)) {
        throw new IdentityException(
          IdentityErrorCodes.OrganizationCycle,
          'An organization cannot move under itself or its own descendants',
          [{ field: 'parentId', message: 'Would create a cycle' }],
        );
      }
      newParentPath = parent.path;
    }
    await this.unique(dto.code ?? org.code, () => this.orgs.update(org, dto, newParentPath));
    return this.node(id);
  }

  async remove(me: AuthPrincipal, id: number): Promise<void> {
    await this.visible(await this.scopes.scopeOf(me.userId), id);
    if (await this.orgs.hasChildrenOrUsers(id)) {
      throw new IdentityException(
        IdentityErrorCodes.OrganizationNotEmpty,
        'The organization still has sub-organizations or users',
      );
    }
    await this.orgs.delete(id);
  }

  private async visible(scope: DataScope, id: number): Promise<OrganizationRow> {
    const org = await this.orgs.byId(id);
    if (org === null || !DataScopeService.contains(scope, org.path)) {
      throw new IdentityException(
        IdentityErrorCodes.OrganizationNotFound,
        `Organization ${id} does not exist`,
      );
    }
    return org;
  }

  private async node(id: number): Promise<OrganizationNode> {
    const { path: _path, ...org } = (await this.orgs.byId(id))!;
    return { ...org, children: [] };
  }

  private async unique<T>(code: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, 'sys_organization_code_uq')) {
        throw new IdentityException(
          IdentityErrorCodes.OrganizationCodeTaken,
          `Organization code '${code}' is already taken`,
          [{ field: 'code', message: 'Already taken' }],
        );
      }
      throw error;
    }
  }
}
