import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG, ValidationException } from '@voltdepot/server-core';
import { GridPage, GroupType, MsgErrorCodes, MsgGroupDto } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { PageParams, withBusinessTimes } from '../shared/grid';
import { MsgException } from '../shared/msg.exception';
import type { GroupBody, GroupQuery } from './group.dto';
import { GroupRepository, GroupRow } from './group.repository';

/** Receiver groups: by role, by user, or nobody (NONE: rules that only broadcast). */
/** What the service asks of the repository (its unit test fakes exactly this). */
export type GroupStore = Pick<
  GroupRepository,
  | 'page'
  | 'list'
  | 'find'
  | 'nameTaken'
  | 'insert'
  | 'update'
  | 'usedByRules'
  | 'delete'
  | 'missingMembers'
  | 'roleOptions'
  | 'userOptions'
>;

@Injectable()
export class GroupsService {
  constructor(
    @Inject(GroupRepository) private readonly groups: GroupStore,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
  ) {}

  private toDto(row: GroupRow): MsgGroupDto {
    return withBusinessTimes(
      { ...row, type: row.type as GroupType },
      this.config.BUSINESS_TIME_ZONE,
    ) as unknown as MsgGroupDto;
  }

  async page(query: GroupQuery, page: PageParams): Promise<GridPage<MsgGroupDto>> {
    const result = await this.groups.page(query, page);
    return { list: result.list.map((r) => this.toDto(r)), total: result.total };
  }

  async list(query: GroupQuery): Promise<MsgGroupDto[]> {
    return (await this.groups.list(query)).map((r) => this.toDto(r));
  }

  async get(id: number): Promise<GroupRow> {
    const row = await this.groups.find(id);
    if (row === undefined) throw new MsgException(MsgErrorCodes.GroupNotFound, `Group ${id} does not exist`);
    return row;
  }

  async create(body: GroupBody, username: string): Promise<{ id: number }> {
    await this.validate(body);
    return { id: await this.groups.insert(body, username) };
  }

  async update(id: number, body: GroupBody, username: string): Promise<{ id: number }> {
    await this.get(id);
    await this.validate(body, id);
    await this.groups.update(id, body, username);
    return { id };
  }

  async delete(id: number): Promise<boolean> {
    await this.get(id);
    const used = await this.groups.usedByRules(id);
    if (used > 0)
      throw new MsgException(MsgErrorCodes.GroupInUse, `The group is used by ${used} event or alert rule(s)`);
    await this.groups.delete(id);
    return true;
  }

  roles() {
    return this.groups.roleOptions();
  }

  users() {
    return this.groups.userOptions();
  }

  private async validate(body: GroupBody, exceptId?: number): Promise<void> {
    if (await this.groups.nameTaken(body.name, exceptId)) {
      throw new MsgException(MsgErrorCodes.GroupNameTaken, `A group named '${body.name}' already exists`);
    }
    if (body.type === 'NONE') return;
    const missing = await this.groups.missingMembers(body.type, body.memberIds);
    if (missing.length > 0) {
      throw new ValidationException([
        {
          field: 'memberIds',
          message: `unknown ${body.type === 'ROLE' ? 'role' : 'user'} id(s): ${missing.join(', ')}`,
        },
      ]);
    }
  }
}
