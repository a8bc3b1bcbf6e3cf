import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { z } from 'zod';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodBody,
  ZodParams,
} from '@voltdepot/server-core';
import { IdParams, idParamsSchema } from '../shared/schemas';
import {
  CreateOrganizationDto,
  createOrganizationSchema,
  organizationNodeSchema,
  UpdateOrganizationDto,
  updateOrganizationSchema,
  type OrganizationNode,
} from './organization.dto';
import { OrganizationsService } from './organizations.service';

@ApiTags('sys: organizations')
@ApiBearerAuth()
@Controller('api/organization')
export class OrganizationsController {
  constructor(private readonly orgs: OrganizationsService) {}

  @ApiDoc({ summary: "The caller's organisation subtrees", response: z.array(organizationNodeSchema) })
  @Get('tree')
  @RequirePermissions('sys:org:query')
  tree(@CurrentPrincipal() me: AuthPrincipal): Promise<OrganizationNode[]> {
    return this.orgs.tree(me);
  }

  @ApiDoc({ response: organizationNodeSchema, errors: [404, 409, 422] })
  @Post()
  @RequirePermissions('sys:org:add')
  create(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(createOrganizationSchema) dto: CreateOrganizationDto,
  ): Promise<OrganizationNode> {
    return this.orgs.create(me, dto);
  }

  @ApiDoc({ response: organizationNodeSchema, errors: [404, 409, 422] })
  @Put(':id')
  @RequirePermissions('sys:org:edit')
  update(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(updateOrganizationSchema) dto: UpdateOrganizationDto,
  ): Promise<OrganizationNode> {
    return this.orgs.update(me, p.id, dto);
  }

  @ApiDoc({ errors: [404, 409] })
  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions('sys:org:delete')
  async remove(@CurrentPrincipal() me: AuthPrincipal, @ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    await this.orgs.remove(me, p.id);
  }
}
