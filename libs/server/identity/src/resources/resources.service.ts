import { Inject, Injectable } from '@nestjs/common';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { IdentityException } from '../identity.exception';
import { buildTree, isUniqueViolation } from '../shared/sql';
import type { CreateResourceDto, UpdateResourceDto, ResourceNode } from './resource.dto';
import { ResourceFields, ResourceRepository, ResourceRow } from './resource.repository';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type ResourceStore = Pick<
  ResourceRepository,
  'all' | 'ofUser' | 'byId' | 'insert' | 'update' | 'ancestorsOf' | 'hasChildren' | 'delete'
>;

@Injectable()
export class ResourcesService {
  constructor(@Inject(ResourceRepository) private readonly resources: ResourceStore) {}

  async tree(): Promise<ResourceNode[]> {
    return buildTree(await this.resources.all()) as ResourceNode[];
  }

  /** The caller's menus (visible menu resources they hold) as a tree. */
  async menuTreeOf(userId: number): Promise<ResourceNode[]> {
    const rows = (await this.resources.ofUser(userId)).filter((r) => r.type === 'menu' && r.visible);
    return buildTree(rows) as ResourceNode[];
  }

  async create(dto: CreateResourceDto): Promise<ResourceNode> {
    const fields: ResourceFields = {
      parentId: dto.parentId ?? null,
      type: dto.type,
      code: dto.code,
      name: dto.name,
      path: dto.path ?? null,
      icon: dto.icon ?? null,
      sort: dto.sort ?? 0,
      visible: dto.visible ?? true,
    };
    await this.checkParent(fields);
    const id = await this.unique(fields.code, () => this.resources.insert(fields));
    return { ...(await this.get(id)), children: [] };
  }

  async update(id: number, dto: UpdateResourceDto): Promise<ResourceNode> {
    const current = await this.get(id);
    const { id: _id, ...before } = current;
    const fields: ResourceFields = { ...before, ...dto };
    await this.checkParent(fields);
    if (fields.parentId !== null && (await this.resources.ancestorsOf(fields.parentId)).includes(id)) {
      throw new IdentityException(
        IdentityErrorCodes.ResourceCycle,
        'A resource cannot move under itself or its descendants',
        [{ field: 'parentId', message: 'Would create a cycle' }],
      );
    }
    await this.unique(fields.code, () => this.resources.update(id, fields));
    return { ...(await this.get(id)), children: [] };
  }

  async remove(id: number): Promise<void> {
    await this.get(id);
    if (await this.resources.hasChildren(id)) {
      throw new IdentityException(IdentityErrorCodes.ResourceHasChildren, 'Delete the child resources first');
    }
    await this.resources.delete(id);
  }

  private async get(id: number): Promise<ResourceRow> {
    const row = await this.resources.byId(id);
    if (row === null)
      throw new IdentityException(IdentityErrorCodes.ResourceNotFound, `Resource ${id} does not exist`);
    return row;
  }

  private async checkParent(fields: ResourceFields): Promise<void> {
    if (fields.parentId === null) {
      if (fields.type === 'button') {
        throw new IdentityException(IdentityErrorCodes.ResourceBadParent, 'A button must belong to a menu', [
          { field: 'parentId', message: 'Required for a button' },
        ]);
      }
      return;
    }
    const parent = await this.resources.byId(fields.parentId);
    if (parent === null) {
      throw new IdentityException(
        IdentityErrorCodes.ResourceNotFound,
        `Resource ${fields.parentId} does not exist`,
        [{ field: 'parentId', message: `Unknown resource ${fields.parentId}` }],
      );
    }
    if (parent.type === 'button') {
      throw new IdentityException(IdentityErrorCodes.ResourceBadParent, 'A button cannot have children', [
        { field: 'parentId', message: 'The parent is a button' },
      ]);
    }
  }

  private async unique<T>(code: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, 'sys_resource_code_uq')) {
        throw new IdentityException(
          IdentityErrorCodes.ResourceCodeTaken,
          `Resource code '${code}' is already taken`,
          [{ field: 'code', message: 'Already taken' }],
        );
      }
      throw error;
    }
  }
}
