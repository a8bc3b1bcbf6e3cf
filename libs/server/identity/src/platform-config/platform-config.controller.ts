import { Controller, Delete, Get, Header, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CurrentPrincipal,
  Public,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import type { EncryptedPlatformConfig, GridPage } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { PageParams, pageParamsSchema } from '../shared/schemas';
import {
  BatchUpdateConfigDto,
  batchUpdateConfigSchema,
  configKeyParamsSchema,
  configQuerySchema,
  CreateConfigDto,
  createConfigSchema,
  platformConfigPageSchema,
  platformConfigRowSchema,
  type PlatformConfigRow,
  encryptedPlatformConfigSchema,
  UpdateConfigDto,
  updateConfigSchema,
} from './platform-config.dto';
import { PlatformConfigService } from './platform-config.service';

/** Read by the console before sign-in (title, logo, city code...). */
@ApiTags('platform')
@Controller('public/noAuth')
export class PublicPlatformConfigController {
  constructor(private readonly configs: PlatformConfigService) {}

  @ApiDoc({
    summary: 'Public platform settings, encrypted (read before sign-in)',
    response: encryptedPlatformConfigSchema,
  })
  @Get('getPlatformModuleConfigList')
  @Public()
  @Header('cache-control', 'no-store')
  list(): Promise<EncryptedPlatformConfig> {
    return this.configs.encryptedPublicList();
  }
}

/** Platform settings, system parameters and third-party settings of the sys area. */
@ApiTags('sys: settings')
@ApiBearerAuth()
@Controller('api/platformConfig')
export class PlatformConfigController {
  constructor(private readonly configs: PlatformConfigService) {}

  @ApiDoc({ response: platformConfigPageSchema })
  @Get('page/:page/size/:size')
  @RequirePermissions('sys:config:query')
  page(
    @ZodParams(pageParamsSchema) p: PageParams,
    @ZodQuery(configQuerySchema) q: z.infer<typeof configQuerySchema>,
  ): Promise<GridPage<PlatformConfigRow>> {
    return this.configs.page(q.category, p.page, p.size);
  }

  @ApiDoc({ response: platformConfigRowSchema, errors: [409] })
  @Post()
  @RequirePermissions('sys:config:edit')
  create(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(createConfigSchema) dto: CreateConfigDto,
  ): Promise<PlatformConfigRow> {
    return this.configs.create(dto, me.username);
  }

  /** Several settings at once (the platform settings form): all validated first, written in one transaction. */
  @ApiDoc({
    summary: 'Several settings at once (all or none)',
    response: z.array(platformConfigRowSchema),
    errors: [404, 422],
  })
  @Put()
  @RequirePermissions('sys:config:edit')
  updateMany(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(batchUpdateConfigSchema) dto: BatchUpdateConfigDto,
  ): Promise<PlatformConfigRow[]> {
    return this.configs.updateMany(dto, me.username);
  }

  @ApiDoc({ response: platformConfigRowSchema, errors: [404, 422] })
  @Put(':configKey')
  @RequirePermissions('sys:config:edit')
  update(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(configKeyParamsSchema) p: z.infer<typeof configKeyParamsSchema>,
    @ZodBody(updateConfigSchema) dto: UpdateConfigDto,
  ): Promise<PlatformConfigRow> {
    return this.configs.update(p.configKey, dto, me.username);
  }

  @ApiDoc({ errors: [404, 409] })
  @Delete(':configKey')
  @HttpCode(204)
  @RequirePermissions('sys:config:edit')
  async remove(@ZodParams(configKeyParamsSchema) p: z.infer<typeof configKeyParamsSchema>): Promise<void> {
    await this.configs.remove(p.configKey);
  }
}
