import { Controller, Get, Inject, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import {
  SPREADSHEET_LANGUAGES,
  type SpreadsheetLanguage,
  type XlsxHttpResponse,
} from '@voltdepot/server-spreadsheet';
import { z } from 'zod';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { AssetView } from '../shared/asset-definition';
import { PageParams, pageParamsSchema } from '../shared/fields';
import { sendUnknownPiles, UNKNOWN_PILE_EXPORT_LIMIT } from '../spreadsheets/unknown-pile-sheet';
import type { UnknownPileAttempt } from './piles.dto';
import {
  chargePointIdParamsSchema,
  HostSelectionDto,
  hostSelectionSchema,
  RegisterUnknownPileDto,
  registerUnknownPileSchema,
} from './piles.dto';
import { PilesService } from './piles.service';
import {
  deliveredHostsSchema,
  registeredPileSchema,
  unknownPileAttemptPageSchema,
  updatedHostsSchema,
} from './piles.dto';

const exportQuerySchema = z.object({ lang: z.enum(SPREADSHEET_LANGUAGES).default('zh-CN') }).strict();

/**
 * Charging-host routes beyond the grid (its export is the generic one of asset-sheets). Registered
 * before the grid's controller, so that `batch` and `unknown` are not taken for an `:id`.
 */
@ApiTags('basic: pile')
@ApiBearerAuth()
@Controller('api/pile')
export class PilesController {
  constructor(@Inject(PilesService) private readonly piles: PilesService) {}

  @ApiDoc({ response: updatedHostsSchema, errors: [404] })
  @Post('batch/enable')
  @RequirePermissions('basic:host:enable')
  enable(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(hostSelectionSchema) dto: HostSelectionDto,
  ): Promise<{ updated: number }> {
    return this.piles.setEnabled(me, dto.ids, true);
  }

  @ApiDoc({ response: updatedHostsSchema, errors: [404] })
  @Post('batch/disable')
  @RequirePermissions('basic:host:enable')
  disable(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(hostSelectionSchema) dto: HostSelectionDto,
  ): Promise<{ updated: number }> {
    return this.piles.setEnabled(me, dto.ids, false);
  }

  @ApiDoc({ response: deliveredHostsSchema, errors: [404] })
  @Post('batch/delivery')
  @RequirePermissions('basic:host:delivery')
  deliver(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(hostSelectionSchema) dto: HostSelectionDto,
  ): Promise<{ updated: number; deliveredAt: string }> {
    return this.piles.deliver(me, dto.ids);
  }

  /** Charge points the gateway turned away because no host has their id. */
  @ApiDoc({
    summary: 'Charge points the gateway turned away because no host has their id',
    response: unknownPileAttemptPageSchema,
  })
  @Get('unknown/page/:page/size/:size')
  @RequirePermissions('basic:host:unknown')
  unknown(@ZodParams(pageParamsSchema) params: PageParams): Promise<GridPage<UnknownPileAttempt>> {
    return this.piles.unknownPage(params.page, params.size);
  }

  /** The unknown-pile list as xlsx (`lang` zh-CN or en-US), the newest UNKNOWN_PILE_EXPORT_LIMIT of it. */
  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('unknown/export')
  @RequirePermissions('basic:host:unknown:export')
  async exportUnknown(
    @ZodQuery(exportQuerySchema) query: { lang: SpreadsheetLanguage },
    @Res() res: HttpResponse,
  ): Promise<void> {
    await sendUnknownPiles(
      await this.piles.unknownAttempts(UNKNOWN_PILE_EXPORT_LIMIT),
      query.lang,
      res as unknown as XlsxHttpResponse,
    );
  }

  @ApiDoc({
    summary: 'Register a turned-away charge point as a host',
    response: registeredPileSchema,
    errors: [404, 409, 422],
  })
  @Post('unknown/:chargePointId/register')
  @RequirePermissions('basic:host:add')
  register(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(chargePointIdParamsSchema) params: { chargePointId: string },
    @ZodBody(registerUnknownPileSchema) dto: RegisterUnknownPileDto,
  ): Promise<{ pile: AssetView; ocppPassword: string }> {
    return this.piles.register(me, params.chargePointId, dto);
  }
}
