import { Controller, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiDoc, HttpRequest, Public, ZodBody } from '@voltdepot/server-core';
import type { RequiredEnrolmentResult, TotpEnrolment } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { clientIp, userAgentOf } from '../shared/client-info';
import {
  enrolmentCompleteSchema,
  enrolmentStartSchema,
  totpEnrolmentSchema,
  requiredEnrolmentResultSchema,
} from './auth.dto';
import { AuthService } from './auth.service';

/**
 * The enrolment a sign-in requires when TOTP is mandatory for administrators. Public: the caller has
 * no session yet, only the enrolment ticket the sign-in answered with (it allows nothing else).
 */
@ApiTags('auth')
@Public()
@Controller('auth/totp/enrolment')
export class TotpEnrolmentController {
  constructor(private readonly auth: AuthService) {}

  @ApiDoc({ summary: 'Start the second-factor enrolment a sign-in requires', response: totpEnrolmentSchema })
  @Post('start')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  start(@ZodBody(enrolmentStartSchema) dto: z.infer<typeof enrolmentStartSchema>): Promise<TotpEnrolment> {
    return this.auth.startRequiredEnrolment(dto.enrolmentToken);
  }

  @ApiDoc({ summary: 'Complete it: recovery codes and the session', response: requiredEnrolmentResultSchema })
  @Post('complete')
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  complete(
    @ZodBody(enrolmentCompleteSchema) dto: z.infer<typeof enrolmentCompleteSchema>,
    @Req() req: HttpRequest,
  ): Promise<RequiredEnrolmentResult> {
    return this.auth.completeRequiredEnrolment(dto.enrolmentToken, dto.code, {
      ip: clientIp(req),
      userAgent: userAgentOf(req),
    });
  }
}
