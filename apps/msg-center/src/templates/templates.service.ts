import { Inject, Injectable } from '@nestjs/common';
import { SERVICE_CONFIG, ValidationException } from '@voltdepot/server-core';
import { GridPage, MsgErrorCodes, MsgTemplateDto, TemplateType } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { tencentParameterKeysProblem } from '../channels/sms/tencent-params';
import { ConfigsService } from '../configs/configs.service';
import { PageParams, withBusinessTimes } from '../shared/grid';
import { MsgException } from '../shared/msg.exception';
import { sanitizeTemplateContent } from './template-content';
import type { TemplateBody, TemplateQuery } from './template.dto';
import { TemplateRepository, TemplateRow } from './template.repository';

/** What the service asks of the repository (its unit test fakes exactly this). */
export type TemplateStore = Pick<
  TemplateRepository,
  'page' | 'byConfig' | 'find' | 'insert' | 'update' | 'usedByRules' | 'delete'
>;

@Injectable()
export class TemplatesService {
  constructor(
    @Inject(TemplateRepository) private readonly templates: TemplateStore,
    @Inject(ConfigsService) private readonly configs: Pick<ConfigsService, 'get'>,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
  ) {}

  toDto(row: TemplateRow): MsgTemplateDto {
    const { configName, fullName, channel: _channel, ...rest } = row;
    return withBusinessTimes(
      { ...rest, type: row.type as TemplateType, config: { configName, fullName } },
      this.config.BUSINESS_TIME_ZONE,
    ) as unknown as MsgTemplateDto;
  }

  async page(query: TemplateQuery, page: PageParams): Promise<GridPage<MsgTemplateDto>> {
    const result = await this.templates.page(query, page);
    return { list: result.list.map((r) => this.toDto(r)), total: result.total };
  }

  async byConfig(configId: number): Promise<MsgTemplateDto[]> {
    return (await this.templates.byConfig(configId)).map((r) => this.toDto(r));
  }

  async get(id: number): Promise<TemplateRow> {
    const row = await this.templates.find(id);
    if (row === undefined)
      throw new MsgException(MsgErrorCodes.TemplateNotFound, `Template ${id} does not exist`);
    return row;
  }

  async create(body: TemplateBody, username: string): Promise<{ id: number }> {
    await this.checkConfig(body);
    return { id: await this.templates.insert(this.clean(body), username) };
  }

  async update(id: number, body: TemplateBody, username: string): Promise<{ id: number }> {
    await this.get(id);
    await this.checkConfig(body);
    await this.templates.update(id, this.clean(body), username);
    return { id };
  }

  async delete(id: number): Promise<boolean> {
    const row = await this.get(id);
    if (!row.editable) {
      throw new MsgException(
        MsgErrorCodes.TemplateNotEditable,
        'This template is not editable and cannot be deleted',
      );
    }
    const used = await this.templates.usedByRules(id);
    if (used > 0) {
      throw new MsgException(
        MsgErrorCodes.TemplateInUse,
        `The template is used by ${used} event or alert rule(s)`,
      );
    }
    await this.templates.delete(id);
    return true;
  }

  /** The configuration exists (404) and, for Tencent SMS, the parameters are numbered 1..n (400). */
  private async checkConfig(body: TemplateBody): Promise<void> {
    const config = await this.configs.get(body.configId);
    if (config.channel !== 'SMS' || config.provider !== 'TENCENT') return;
    const problem = tencentParameterKeysProblem(Object.keys(body.parameters));
    if (problem !== undefined) throw new ValidationException([{ field: 'parameters', message: problem }]);
  }

  private clean(body: TemplateBody): TemplateBody & { content: string | null } {
    return { ...body, content: body.content == null ? null : sanitizeTemplateContent(body.content) };
  }
}
