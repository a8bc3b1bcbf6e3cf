import { Inject, Injectable } from '@nestjs/common';
import { OutboundGuard, SERVICE_CONFIG, ValidationException } from '@voltdepot/server-core';
import { ChannelType, GridPage, MsgConfigDto, MsgErrorCodes } from '@voltdepot/shared-contracts';
import type { MsgCenterConfig } from '../app.config';
import { MsgException } from '../shared/msg.exception';
import { PageParams, withBusinessTimes } from '../shared/grid';
import { outboundSettingHosts, SECRET_MASK } from './channel-settings';
import type { ConfigBody, ConfigQuery } from './config.dto';
import { ConfigRepository, ConfigRow } from './config.repository';

export { SECRET_MASK };
/**
 * Settings whose values are credentials: masked in every response, never logged. A robot `webhook` URL
 * carries the robot's token (`access_token=`, `key=`).
 */
export const SECRET_SETTING = /secret|password|pass$|token|accesskey|key$|webhook/i;

export function maskSettings(settings: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(settings).map(([k, v]) => [
      k,
      SECRET_SETTING.test(k) && v !== '' && v != null ? SECRET_MASK : v,
    ]),
  );
}

/** What the service asks of the repository (its unit test fakes exactly this). */
export type ConfigStore = Pick<
  ConfigRepository,
  'page' | 'list' | 'find' | 'nameTaken' | 'insert' | 'update' | 'usedByTemplates' | 'delete'
>;

/** Channel configurations (SMTP server, robot webhooks, SMS accounts) that templates send through. */
@Injectable()
export class ConfigsService {
  constructor(
    @Inject(ConfigRepository) private readonly configs: ConfigStore,
    @Inject(SERVICE_CONFIG) private readonly config: Pick<MsgCenterConfig, 'BUSINESS_TIME_ZONE'>,
    @Inject(OutboundGuard) private readonly outbound: Pick<OutboundGuard, 'problemAtSave'>,
  ) {}

  toDto(row: ConfigRow): MsgConfigDto {
    return withBusinessTimes(
      { ...row, channel: row.channel as ChannelType, settings: maskSettings(row.settings) },
      this.config.BUSINESS_TIME_ZONE,
    ) as unknown as MsgConfigDto;
  }

  async page(query: ConfigQuery, page: PageParams): Promise<GridPage<MsgConfigDto>> {
    const result = await this.configs.page(query, page);
    return { list: result.list.map((r) => this.toDto(r)), total: result.total };
  }

  async list(query: ConfigQuery): Promise<MsgConfigDto[]> {
    return (await this.configs.list(query)).map((r) => this.toDto(r));
  }

  async get(id: number): Promise<ConfigRow> {
    const row = await this.configs.find(id);
    if (row === undefined)
      throw new MsgException(MsgErrorCodes.ConfigNotFound, `Message config ${id} does not exist`);
    return row;
  }

  async create(body: ConfigBody, username: string): Promise<{ id: number }> {
    await this.assertReachable(body);
    await this.assertNameFree(body.configName);
    return { id: await this.configs.insert(body, username) };
  }

  async update(id: number, body: ConfigBody, username: string): Promise<{ id: number }> {
    const existing = await this.get(id);
    await this.assertReachable(body);
    await this.assertNameFree(body.configName, id);
    // A masked value sent back means "keep what is stored".
    const settings = Object.fromEntries(
      Object.entries(body.settings).map(([k, v]) => [k, v === SECRET_MASK ? existing.settings[k] : v]),
    );
    await this.configs.update(id, { ...body, settings }, username);
    return { id };
  }

  async delete(id: number): Promise<boolean> {
    await this.get(id);
    const used = await this.configs.usedByTemplates(id);
    if (used > 0) {
      throw new MsgException(MsgErrorCodes.ConfigInUse, `The configuration is used by ${used} template(s)`, {
        templates: used,
      });
    }
    await this.configs.delete(id);
    return true;
  }

  /** 400 naming the setting whose host the outbound rules refuse (checked again at every send). */
  private async assertReachable(body: ConfigBody): Promise<void> {
    for (const [key, host] of outboundSettingHosts(body.channel, body.settings)) {
      const refused = await this.outbound.problemAtSave(host);
      if (refused !== undefined)
        throw new ValidationException([{ field: `settings.${key}`, message: refused }]);
    }
  }

  private async assertNameFree(name: string, exceptId?: number): Promise<void> {
    if (await this.configs.nameTaken(name, exceptId)) {
      throw new MsgException(MsgErrorCodes.ConfigNameTaken, `A configuration named '${name}' already exists`);
    }
  }
}
