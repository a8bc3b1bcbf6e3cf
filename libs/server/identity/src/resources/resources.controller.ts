import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { RequirePermissions, ZodBody, ZodParams } from '@voltdepot/server-core';
import type { ResourceNode } from '@voltdepot/shared-contracts';
import { IdParams, idParamsSchema } from '../shared/schemas';
import {
  CreateResourceDto,
  createResourceSchema,
  UpdateResourceDto,
  updateResourceSchema,
} from './resource.dto';
import { ResourcesService } from './resources.service';

@ApiTags('sys: resources')
@ApiBearerAuth()
@Controller('api/resource')
export class ResourcesController {
  constructor(private readonly resources: ResourcesService) {}

  /** The whole tree, also used by the menu-authorisation dialog. */
  @Get('tree')
  @RequirePermissions('sys:resource:query')
  tree(): Promise<ResourceNode[]> {
    return this.resources.tree();
  }

  @Post()
  @RequirePermissions('sys:resource:add')
  create(@ZodBody(createResourceSchema) dto: CreateResourceDto): Promise<ResourceNode> {
    return this.resources.create(dto);
  }

  @Put(':id')
  @RequirePermissions('sys:resource:edit')
  update(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(updateResourceSchema) dto: UpdateResourceDto,
  ): Promise<ResourceNode> {
    return this.resources.update(p.id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions('sys:resource:delete')
  async remove(@ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    await this.resources.remove(p.id);
  }
}
