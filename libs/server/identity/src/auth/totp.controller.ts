import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiDoc, Authenticated, AuthPrincipal, CurrentPrincipal, ZodBody } from '@voltdepot/server-core';
import type { TotpActivation, TotpEnrolment } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { totpActivationSchema, totpCodeSchema, totpDisableSchema, totpEnrolmentSchema } from './auth.dto';
import { TotpService } from './totp.service';

/** The caller's own second factor. */
@ApiTags('auth')
@ApiBearerAuth()
@Authenticated()
@Controller('auth/totp')
export class TotpController {
  constructor(private readonly totp: TotpService) {}

  @ApiDoc({ summary: 'Start enrolling a second factor (TOTP)', response: totpEnrolmentSchema, errors: [409] })
  @Post('enroll')
  @HttpCode(200)
  enroll(@CurrentPrincipal() me: AuthPrincipal): Promise<TotpEnrolment> {
    return this.totp.enroll(me.userId);
  }

  @ApiDoc({
    summary: 'Turn the second factor on with a first code',
    response: totpActivationSchema,
    errors: [409],
  })
  @Post('activate')
  @HttpCode(200)
  activate(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(totpCodeSchema) dto: z.infer<typeof totpCodeSchema>,
  ): Promise<TotpActivation> {
    return this.totp.activate(me.userId, dto.code);
  }

  @ApiDoc({ summary: 'Turn the second factor off (password needed)' })
  @Post('disable')
  @HttpCode(204)
  async disable(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(totpDisableSchema) dto: z.infer<typeof totpDisableSchema>,
  ): Promise<void> {
    await this.totp.disable(me.userId, dto.password);
  }
}
