import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { IdParams, idParamsSchema, PageParams, pageParamsSchema } from '../shared/schemas';
import {
  CreateRoleDto,
  createRoleSchema,
  roleOrganizationIdsSchema,
  roleOrganizationsSchema,
  roleOrganizationsViewSchema,
  rolePageSchema,
  roleQuerySchema,
  roleResourceIdsSchema,
  roleResourcesSchema,
  roleResourcesViewSchema,
  roleViewSchema,
  UpdateRoleDto,
  updateRoleSchema,
  type RoleOrganizationsView,
  type RoleResourcesView,
  type RoleView,
} from './role.dto';
import { RolesService } from './roles.service';

@ApiTags('sys: roles')
@ApiBearerAuth()
@Controller('api/role')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @ApiDoc({ response: rolePageSchema })
  @Get('page/:page/size/:size')
  @RequirePermissions('sys:role:query')
  page(
    @ZodParams(pageParamsSchema) p: PageParams,
    @ZodQuery(roleQuerySchema) q: z.infer<typeof roleQuerySchema>,
  ): Promise<GridPage<RoleView>> {
    return this.roles.page(q, p.page, p.size);
  }

  /** Every role, for the user-role dialog. */
  @ApiDoc({ summary: 'Every role (the user-role dialog)', response: z.array(roleViewSchema) })
  @Get('all')
  @RequirePermissions('sys:user:role')
  all(): Promise<RoleView[]> {
    return this.roles.all();
  }

  @ApiDoc({ response: roleViewSchema, errors: [404] })
  @Get(':id')
  @RequirePermissions('sys:role:query')
  get(@ZodParams(idParamsSchema) p: IdParams): Promise<RoleView> {
    return this.roles.get(p.id);
  }

  @ApiDoc({ response: roleViewSchema, errors: [409] })
  @Post()
  @RequirePermissions('sys:role:add')
  create(@ZodBody(createRoleSchema) dto: CreateRoleDto): Promise<RoleView> {
    return this.roles.create(dto);
  }

  @ApiDoc({ response: roleViewSchema, errors: [404, 409, 422] })
  @Put(':id')
  @RequirePermissions('sys:role:edit')
  update(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(updateRoleSchema) dto: UpdateRoleDto,
  ): Promise<RoleView> {
    return this.roles.update(p.id, dto);
  }

  @ApiDoc({ errors: [404, 409, 422] })
  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions('sys:role:delete')
  async remove(@ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    await this.roles.remove(p.id);
  }

  /**
   * Menu authorisation: the resource (menu and button) ids the role holds, and the whole resource tree
   * (the dialog needs nothing but sys:role:menuAuth).
   */
  @ApiDoc({ response: roleResourcesViewSchema, errors: [404] })
  @Get(':id/resources')
  @RequirePermissions('sys:role:menuAuth')
  resources(@ZodParams(idParamsSchema) p: IdParams): Promise<RoleResourcesView> {
    return this.roles.resourcesWithTree(p.id);
  }

  @ApiDoc({ response: roleResourceIdsSchema, errors: [404, 422] })
  @Put(':id/resources')
  @RequirePermissions('sys:role:menuAuth')
  setResources(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(roleResourcesSchema) dto: z.infer<typeof roleResourcesSchema>,
  ): Promise<{ resourceIds: number[] }> {
    return this.roles.setResources(p.id, dto.resourceIds);
  }

  /**
   * Data authorisation: roots of the organisation subtrees the role sees, and the caller's own subtrees
   * to choose from (the dialog needs nothing but sys:role:dataAuth).
   */
  @ApiDoc({ response: roleOrganizationsViewSchema, errors: [404] })
  @Get(':id/organizations')
  @RequirePermissions('sys:role:dataAuth')
  organizations(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
  ): Promise<RoleOrganizationsView> {
    return this.roles.organizationsWithTree(me, p.id);
  }

  @ApiDoc({ response: roleOrganizationIdsSchema, errors: [404, 422] })
  @Put(':id/organizations')
  @RequirePermissions('sys:role:dataAuth')
  setOrganizations(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(roleOrganizationsSchema) dto: z.infer<typeof roleOrganizationsSchema>,
  ): Promise<{ organizationIds: number[] }> {
    return this.roles.setOrganizations(me, p.id, dto.organizationIds);
  }
}
