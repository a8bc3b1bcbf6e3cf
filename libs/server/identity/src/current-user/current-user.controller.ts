import { Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiDoc, Authenticated, AuthPrincipal, CurrentPrincipal, ZodBody } from '@voltdepot/server-core';
import { z } from 'zod';
import { changeOwnPasswordSchema } from '../users/user.dto';
import { UsersService } from '../users/users.service';
import { CurrentUserService } from './current-user.service';
import { currentUserInfoSchema, userExtSchema, type CurrentUserInfo, type UserExt } from './current-user.dto';
import { resourceNodeSchema, type ResourceNode } from '../resources/resource.dto';

/** The signed-in caller's own profile, menus and permissions (paths of the spec). */
@ApiTags('current user')
@ApiBearerAuth()
@Authenticated()
@Controller()
export class CurrentUserController {
  constructor(
    private readonly current: CurrentUserService,
    private readonly users: UsersService,
  ) {}

  @ApiDoc({ summary: 'The caller: roles, permissions, menus', response: currentUserInfoSchema })
  @Get('authority/users/currentuser/info')
  info(@CurrentPrincipal() me: AuthPrincipal): Promise<CurrentUserInfo> {
    return this.current.info(me);
  }

  @ApiDoc({ summary: "The caller's menu tree", response: z.array(resourceNodeSchema) })
  @Get('authority/users/currentuser/menus')
  menus(@CurrentPrincipal() me: AuthPrincipal): Promise<ResourceNode[]> {
    return this.current.menus(me);
  }

  @ApiDoc({ summary: "The caller's permission codes", response: z.array(z.string()) })
  @Get('authority/users/currentuser/permissions')
  permissions(@CurrentPrincipal() me: AuthPrincipal): string[] {
    return [...me.permissions].sort();
  }

  @ApiDoc({ summary: "The caller's profile and data scope", response: userExtSchema })
  @Get('user/getUserExt')
  ext(@CurrentPrincipal() me: AuthPrincipal): Promise<UserExt> {
    return this.current.ext(me);
  }

  /** Change own password: other sessions end, this one stays. */
  @ApiDoc({ summary: 'Change own password (other sessions end)', errors: [422] })
  @Put('user/password')
  @HttpCode(204)
  async changePassword(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(changeOwnPasswordSchema) dto: z.infer<typeof changeOwnPasswordSchema>,
  ): Promise<void> {
    await this.users.changeOwnPassword(me, dto.oldPassword, dto.newPassword);
  }
}
