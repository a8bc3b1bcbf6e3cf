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
  CopyUserDto,
  copyUserSchema,
  CreateUserDto,
  createUserSchema,
  enabledSchema,
  resetPasswordSchema,
  UpdateUserDto,
  updateUserSchema,
  userPageSchema,
  UserQuery,
  userQuerySchema,
  userRoleIdsSchema,
  userRolesSchema,
  userViewSchema,
  type UserView,
} from './user.dto';
import { UsersService } from './users.service';

@ApiTags('sys: users')
@ApiBearerAuth()
@Controller('api/user')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @ApiDoc({ response: userPageSchema })
  @Get('page/:page/size/:size')
  @RequirePermissions('sys:user:query')
  page(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pageParamsSchema) p: PageParams,
    @ZodQuery(userQuerySchema) query: UserQuery,
  ): Promise<GridPage<UserView>> {
    return this.users.page(me, query, p.page, p.size);
  }

  @ApiDoc({ response: userViewSchema, errors: [404] })
  @Get(':id')
  @RequirePermissions('sys:user:query')
  get(@CurrentPrincipal() me: AuthPrincipal, @ZodParams(idParamsSchema) p: IdParams): Promise<UserView> {
    return this.users.get(me, p.id);
  }

  @ApiDoc({ response: userViewSchema, errors: [404, 409, 422] })
  @Post()
  @RequirePermissions('sys:user:add')
  create(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(createUserSchema) dto: CreateUserDto,
  ): Promise<UserView> {
    return this.users.create(me, dto);
  }

  @ApiDoc({ response: userViewSchema, errors: [404, 422] })
  @Put(':id')
  @RequirePermissions('sys:user:edit')
  update(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(updateUserSchema) dto: UpdateUserDto,
  ): Promise<UserView> {
    return this.users.update(me, p.id, dto);
  }

  @ApiDoc({ errors: [404, 422] })
  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions('sys:user:delete')
  async remove(@CurrentPrincipal() me: AuthPrincipal, @ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    await this.users.remove(me, p.id);
  }

  @ApiDoc({ response: userViewSchema, errors: [404, 422] })
  @Put(':id/enabled')
  @RequirePermissions('sys:user:enable')
  setEnabled(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(enabledSchema) dto: z.infer<typeof enabledSchema>,
  ): Promise<UserView> {
    return this.users.setEnabled(me, p.id, dto.enabled);
  }

  @ApiDoc({ errors: [404, 422] })
  @Post(':id/resetPassword')
  @HttpCode(204)
  @RequirePermissions('sys:user:resetPassword')
  async resetPassword(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(resetPasswordSchema) dto: z.infer<typeof resetPasswordSchema>,
  ): Promise<void> {
    await this.users.resetPassword(me, p.id, dto.password);
  }

  @ApiDoc({ response: userViewSchema, errors: [404, 409] })
  @Post(':id/copy')
  @RequirePermissions('sys:user:copy')
  copy(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(copyUserSchema) dto: CopyUserDto,
  ): Promise<UserView> {
    return this.users.copy(me, p.id, dto);
  }

  /** Turns off a user's second factor (lost phone); they sign in with the password alone until they enrol again. */
  @ApiDoc({ errors: [404, 422] })
  @Delete(':id/totp')
  @HttpCode(204)
  @RequirePermissions('sys:user:resetPassword')
  async resetTotp(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
  ): Promise<void> {
    await this.users.resetTotp(me, p.id);
  }

  @ApiDoc({ response: userRoleIdsSchema, errors: [404] })
  @Get(':id/roles')
  @RequirePermissions('sys:user:role')
  roles(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
  ): Promise<{ roleIds: number[] }> {
    return this.users.roles(me, p.id);
  }

  @ApiDoc({ response: userRoleIdsSchema, errors: [404, 422] })
  @Put(':id/roles')
  @RequirePermissions('sys:user:role')
  setRoles(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(userRolesSchema) dto: z.infer<typeof userRolesSchema>,
  ): Promise<{ roleIds: number[] }> {
    return this.users.setRoles(me, p.id, dto.roleIds);
  }
}
