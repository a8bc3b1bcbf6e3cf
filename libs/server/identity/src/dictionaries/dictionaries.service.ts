import { Inject, Injectable } from '@nestjs/common';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { IdentityException } from '../identity.exception';
import { buildTree, isUniqueViolation } from '../shared/sql';
import type { CreateDictDto, UpdateDictDto, DictNode } from './dict.dto';
import { DictFields, DictRepository, DictRow } from './dict.repository';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type DictStore = Pick<
  DictRepository,
  'tree' | 'byId' | 'insert' | 'update' | 'hasChildren' | 'delete'
>;

@Injectable()
export class DictionariesService {
  constructor(@Inject(DictRepository) private readonly dicts: DictStore) {}

  async tree(typeCode?: string): Promise<DictNode[]> {
    return buildTree(await this.dicts.tree(typeCode)) as DictNode[];
  }

  /** The enabled items of one type, for a screen's options. */
  async items(typeCode: string): Promise<DictNode[]> {
    const [type] = await this.tree(typeCode);
    if (type === undefined) {
      throw new IdentityException(
        IdentityErrorCodes.DictNotFound,
        `Dictionary type '${typeCode}' does not exist`,
      );
    }
    return type.children.filter((item) => item.enabled);
  }

  async create(dto: CreateDictDto): Promise<DictNode> {
    const parentId = dto.parentId ?? null;
    if (parentId !== null) {
      const parent = await this.dicts.byId(parentId);
      if (parent === null || parent.kind !== 'type') {
        throw new IdentityException(
          parent === null ? IdentityErrorCodes.DictNotFound : IdentityErrorCodes.DictBadParent,
          parent === null
            ? `Dictionary entry ${parentId} does not exist`
            : 'Items belong to a dictionary type, not to an item',
          [
            {
              field: 'parentId',
              message: parent === null ? `Unknown dictionary entry ${parentId}` : 'Not a type',
            },
          ],
        );
      }
    }
    const fields: DictFields = {
      parentId,
      kind: parentId === null ? 'type' : 'item',
      code: dto.code,
      name: dto.name,
      value: dto.value ?? (parentId === null ? null : dto.code),
      sort: dto.sort ?? 0,
      enabled: dto.enabled ?? true,
    };
    const id = await this.unique(fields, () => this.dicts.insert(fields));
    return { ...(await this.get(id)), children: [] };
  }

  async update(id: number, dto: UpdateDictDto): Promise<DictNode> {
    const { id: _id, ...current } = await this.get(id);
    const fields: DictFields = {
      ...current,
      ...dto,
      value: dto.value === undefined ? current.value : dto.value,
    };
    await this.unique(fields, () => this.dicts.update(id, fields));
    return { ...(await this.get(id)), children: [] };
  }

  async remove(id: number): Promise<void> {
    await this.get(id);
    if (await this.dicts.hasChildren(id)) {
      throw new IdentityException(IdentityErrorCodes.DictHasChildren, 'Delete the items of this type first');
    }
    await this.dicts.delete(id);
  }

  private async get(id: number): Promise<DictRow> {
    const row = await this.dicts.byId(id);
    if (row === null)
      throw new IdentityException(IdentityErrorCodes.DictNotFound, `Dictionary entry ${id} does not exist`);
    return row;
  }

  private async unique<T>(fields: DictFields, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new IdentityException(
          IdentityErrorCodes.DictCodeTaken,
          fields.kind === 'type'
            ? `Dictionary type '${fields.code}' already exists`
            : `Item '${fields.code}' already exists in this type`,
          [{ field: 'code', message: 'Already taken' }],
        );
      }
      throw error;
    }
  }
}
