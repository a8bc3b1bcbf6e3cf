import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { z } from 'zod';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiDoc, RequirePermissions, ZodBody, ZodParams } from '@voltdepot/server-core';
import { IdParams, idParamsSchema } from '../shared/schemas';
import {
  CreateResourceDto,
  createResourceSchema,
  resourceNodeSchema,
  UpdateResourceDto,
  updateResourceSchema,
  type ResourceNode,
} from './resource.dto';
import { ResourcesService } from './resources.service';

@ApiTags('sys: resources')
@ApiBearerAuth()
@Controller('api/resource')
export class ResourcesController {
  constructor(private readonly resources: ResourcesService) {}

  /** The whole tree, also used by the menu-authorisation dialog. */
  @ApiDoc({ response: z.array(resourceNodeSchema) })
  @Get('tree')
  @RequirePermissions('sys:resource:query')
  tree(): Promise<ResourceNode[]> {
    return this.resources.tree();
  }

  @ApiDoc({ response: resourceNodeSchema, errors: [404, 409] })
  @Post()
  @RequirePermissions('sys:resource:add')
  create(@ZodBody(createResourceSchema) dto: CreateResourceDto): Promise<ResourceNode> {
    return this.resources.create(dto);
  }

  @ApiDoc({ response: resourceNodeSchema, errors: [404, 409, 422] })
  @Put(':id')
  @RequirePermissions('sys:resource:edit')
  update(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(updateResourceSchema) dto: UpdateResourceDto,
  ): Promise<ResourceNode> {
    return this.resources.update(p.id, dto);
  }

  @ApiDoc({ errors: [404, 409] })
  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions('sys:resource:delete')
  async remove(@ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    await this.resources.remove(p.id);
  }
}
