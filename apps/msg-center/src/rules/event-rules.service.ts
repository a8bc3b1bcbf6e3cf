import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG } from '@voltdepot/server-core';
import { GridPage, MsgErrorCodes, MsgEventRuleDto } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { GroupsService } from '../groups/groups.service';
import { PageParams, withBusinessTimes } from '../shared/grid';
import { MsgException } from '../shared/msg.exception';
import { TemplatesService } from '../templates/templates.service';
import type { EventRuleBody, EventRuleQuery } from './event-rule.dto';
import { EventRuleRepository, EventRuleRow } from './event-rule.repository';

@Injectable()
export class EventRulesService {
  constructor(
    @Inject(EventRuleRepository)
    private readonly rules: Pick<EventRuleRepository, 'page' | 'find' | 'insert' | 'update' | 'delete'>,
    @Inject(TemplatesService) private readonly templates: Pick<TemplatesService, 'get'>,
    @Inject(GroupsService) private readonly groups: Pick<GroupsService, 'get'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
  ) {}

  async page(query: EventRuleQuery, page: PageParams): Promise<GridPage<MsgEventRuleDto>> {
    const result = await this.rules.page(query, page);
    return {
      list: result.list.map(
        (r) => withBusinessTimes(r, this.config.BUSINESS_TIME_ZONE) as unknown as MsgEventRuleDto,
      ),
      total: result.total,
    };
  }

  async get(id: number): Promise<EventRuleRow> {
    const row = await this.rules.find(id);
    if (row === undefined) throw new MsgException(MsgErrorCodes.EventNotFound, `Event ${id} does not exist`);
    return row;
  }

  async create(body: EventRuleBody, username: string): Promise<{ id: number }> {
    await this.references(body);
    return { id: await this.rules.insert(body, username) };
  }

  async update(id: number, body: EventRuleBody, username: string): Promise<{ id: number }> {
    await this.get(id);
    await this.references(body);
    await this.rules.update(id, body, username);
    return { id };
  }

  async delete(id: number): Promise<boolean> {
    await this.get(id);
    await this.rules.delete(id);
    return true;
  }

  private async references(body: { templateId?: number | null; groupId?: number | null }): Promise<void> {
    if (body.templateId != null) await this.templates.get(body.templateId);
    if (body.groupId != null) await this.groups.get(body.groupId);
  }
}
