import { Controller, Get, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { HttpRequest, Public, ZodBody } from '@voltdepot/server-core';
import type { CaptchaResponse, SessionTokens } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { bearerOf, clientIp, userAgentOf } from '../shared/client-info';
import { LoginDto, loginSchema, logoutSchema, refreshSchema } from './auth.dto';
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

  @Get('captcha')
  @Header('cache-control', 'no-store')
  getCaptcha(): Promise<CaptchaResponse> {
    return this.captcha.create();
  }

  @Post('login')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  login(@ZodBody(loginSchema) dto: LoginDto, @Req() req: HttpRequest): Promise<SessionTokens> {
    return this.auth.login(dto, { ip: clientIp(req), userAgent: userAgentOf(req) });
  }

  @Post('refresh')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  refresh(@ZodBody(refreshSchema) dto: z.infer<typeof refreshSchema>): Promise<SessionTokens> {
    return this.auth.refresh(dto.refreshToken);
  }

  @Post('logout')
  @HttpCode(204)
  async logout(
    @ZodBody(logoutSchema) dto: z.infer<typeof logoutSchema>,
    @Req() req: HttpRequest,
  ): Promise<void> {
    await this.auth.logout(dto.refreshToken, bearerOf(req));
  }
}
