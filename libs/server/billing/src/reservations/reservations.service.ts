import type { AuthPrincipal } from '@voltdepot/server-core';
import type { BillingDataScopeProvider } from '../shared/data-scope';
import type { ReservationPage, ReservationQuery, ReservationView } from './dto/reservation.dto';
import type { ReservationRepository } from './reservation.repository';

/** The reservation list, limited to the piles of the caller's organisations. */
export class ReservationsService {
  constructor(
    private readonly repository: ReservationRepository,
    private readonly scopes: BillingDataScopeProvider,
  ) {}

  async page(me: AuthPrincipal, q: ReservationQuery, page: number, size: number): Promise<ReservationPage> {
    return this.repository.page(q, await this.scopes.scopeOf(me.userId), page, size);
  }

  /** The filtered list in pages of `batchSize`, newest first, up to `limit` rows (exports). */
  async *rows(
    me: AuthPrincipal,
    q: ReservationQuery,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<ReservationView[]> {
    const scope = await this.scopes.scopeOf(me.userId);
    yield* this.repository.batches(q, scope, batchSize, limit);
  }
}
