import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodBody,
  ZodParams,
} from '@voltdepot/server-core';
import type { OrganizationNode } from '@voltdepot/shared-contracts';
import { IdParams, idParamsSchema } from '../shared/schemas';
import {
  CreateOrganizationDto,
  createOrganizationSchema,
  UpdateOrganizationDto,
  updateOrganizationSchema,
} from './organization.dto';
import { OrganizationsService } from './organizations.service';

@ApiTags('sys: organizations')
@ApiBearerAuth()
@Controller('api/organization')
export class OrganizationsController {
  constructor(private readonly orgs: OrganizationsService) {}

  @Get('tree')
  @RequirePermissions('sys:org:query')
  tree(@CurrentPrincipal() me: AuthPrincipal): Promise<OrganizationNode[]> {
    return this.orgs.tree(me);
  }

  @Post()
  @RequirePermissions('sys:org:add')
  create(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(createOrganizationSchema) dto: CreateOrganizationDto,
  ): Promise<OrganizationNode> {
    return this.orgs.create(me, dto);
  }

  @Put(':id')
  @RequirePermissions('sys:org:edit')
  update(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(updateOrganizationSchema) dto: UpdateOrganizationDto,
  ): Promise<OrganizationNode> {
    return this.orgs.update(me, p.id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions('sys:org:delete')
  async remove(@CurrentPrincipal() me: AuthPrincipal, @ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    await this.orgs.remove(me, p.id);
  }
}
