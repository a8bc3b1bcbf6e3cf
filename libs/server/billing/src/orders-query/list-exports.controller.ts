import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  type AuthPrincipal,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodQuery,
} from '@voltdepot/server-core';
import { sendXlsx } from '@voltdepot/server-spreadsheet';
import type { z } from 'zod';
import { occupationOrderQuerySchema } from '../occupation/dto/occupation-order.dto';
import { OccupationOrdersService } from '../occupation/occupation-orders.service';
import { reservationQuerySchema } from '../reservations/dto/reservation.dto';
import { ReservationsService } from '../reservations/reservations.service';
import { OCCUPATION_ORDER_COLUMNS, RESERVATION_COLUMNS } from './billing-exports';
import { exportLanguageSchema } from '../shared/query-params';

export const LIST_EXPORT_PERMISSIONS = {
  occupationOrder: 'occupation_order:export',
  reservation: 'reservation:export',
} as const;

const BATCH = 500;
/** The most rows one export writes (newest first). */
const LIMIT = 100_000;

const occupationExportSchema = occupationOrderQuerySchema.and(exportLanguageSchema);
const reservationExportSchema = reservationQuerySchema.and(exportLanguageSchema);

/**
 * The occupation fee order and reservation lists as .xlsx, with the lists' own filters and the
 * caller's data scope. Two path segments after the area so that an `/:id` route never takes them.
 */
@ApiTags('billing: list exports')
@ApiBearerAuth()
@Controller('api')
export class ListExportsController {
  constructor(
    @Inject(OccupationOrdersService) private readonly occupation: OccupationOrdersService,
    @Inject(ReservationsService) private readonly reservations: ReservationsService,
  ) {}

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('occupationOrder/export/xlsx')
  @RequirePermissions(LIST_EXPORT_PERMISSIONS.occupationOrder)
  async exportOccupationOrders(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(occupationExportSchema) q: z.output<typeof occupationExportSchema>,
    @Res() res: HttpResponse,
  ): Promise<void> {
    await sendXlsx(
      res,
      q.lang === 'zh-CN' ? '占位费订单.xlsx' : 'occupation-fee-orders.xlsx',
      'occupation-orders',
      OCCUPATION_ORDER_COLUMNS,
      this.occupation.rows(me, q, BATCH, LIMIT),
      q.lang,
    );
  }

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('reservation/export/xlsx')
  @RequirePermissions(LIST_EXPORT_PERMISSIONS.reservation)
  async exportReservations(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(reservationExportSchema) q: z.output<typeof reservationExportSchema>,
    @Res() res: HttpResponse,
  ): Promise<void> {
    await sendXlsx(
      res,
      q.lang === 'zh-CN' ? '预约记录.xlsx' : 'reservations.xlsx',
      'reservations',
      RESERVATION_COLUMNS,
      this.reservations.rows(me, q, BATCH, LIMIT),
      q.lang,
    );
  }
}
