import { Controller, Get, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiDoc, HttpRequest, Public, ZodBody } from '@voltdepot/server-core';
import type { CaptchaResponse, SessionTokens } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { bearerOf, clientIp, userAgentOf } from '../shared/client-info';
import {
  captchaResponseSchema,
  LoginDto,
  loginSchema,
  logoutSchema,
  refreshSchema,
  sessionTokensSchema,
} from './auth.dto';
import { AuthService } from './auth.service';
import { CaptchaService } from './captcha.service';

/** Sign-in and sessions. All public: they are how a caller gets a token. */
@ApiTags('auth')
@Public()
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly captcha: CaptchaService,
  ) {}

  @ApiDoc({
    summary: 'A captcha to sign in with (429 with Retry-After beyond the per-address limit)',
    response: captchaResponseSchema,
    errors: [429],
  })
  @Get('captcha')
  @Header('cache-control', 'no-store')
  getCaptcha(@Req() req: HttpRequest): Promise<CaptchaResponse> {
    return this.captcha.create(clientIp(req));
  }

  @ApiDoc({
    summary: 'Sign in (422 when a second factor must be enrolled first)',
    response: sessionTokensSchema,
    errors: [422, 429],
  })
  @Post('login')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  login(@ZodBody(loginSchema) dto: LoginDto, @Req() req: HttpRequest): Promise<SessionTokens> {
    return this.auth.login(dto, { ip: clientIp(req), userAgent: userAgentOf(req) });
  }

  @ApiDoc({ summary: 'A fresh access token for a refresh token', response: sessionTokensSchema })
  @Post('refresh')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  refresh(@ZodBody(refreshSchema) dto: z.infer<typeof refreshSchema>): Promise<SessionTokens> {
    return this.auth.refresh(dto.refreshToken);
  }

  @ApiDoc({ summary: 'End the session' })
  @Post('logout')
  @HttpCode(204)
  async logout(
    @ZodBody(logoutSchema) dto: z.infer<typeof logoutSchema>,
    @Req() req: HttpRequest,
  ): Promise<void> {
    await this.auth.logout(dto.refreshToken, bearerOf(req));
  }
}
