import { Controller, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthPrincipal } from '@voltdepot/server-core';
import { GridPageRoute } from '../shared/grid-page-route';
import type { GridPageParams } from '../shared/query-params';
import {
  type ReservationPage,
  reservationPageSchema,
  type ReservationQuery,
  reservationQuerySchema,
} from './dto/reservation.dto';
import { ReservationsService } from './reservations.service';
import { ApiDoc } from '@voltdepot/server-core';

export const RESERVATION_PERMISSIONS = { view: 'reservation:view' } as const;

/** Reservations made on the piles (ReserveNow commands the piles accepted), newest first. */
@ApiTags('billing: reservations')
@ApiBearerAuth()
@Controller('api/reservation')
export class ReservationsController {
  constructor(@Inject(ReservationsService) private readonly service: ReservationsService) {}

  @ApiDoc({ response: reservationPageSchema })
  @GridPageRoute(RESERVATION_PERMISSIONS.view, reservationQuerySchema)
  page(me: AuthPrincipal, p: GridPageParams, q: ReservationQuery): Promise<ReservationPage> {
    return this.service.page(me, q, p.page, p.size);
  }
}
