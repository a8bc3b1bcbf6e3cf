import type { AuthPrincipal } from '@voltdepot/server-core';
import type { BillingDataScopeProvider } from '../shared/data-scope';
import type {
  OccupationOrderPage,
  OccupationOrderQuery,
  OccupationOrderView,
} from './dto/occupation-order.dto';
import { OccupationOrdersErrorCode, OccupationOrdersException } from './occupation-orders.exception';
import type { OccupationOrdersRepository } from './occupation-orders.repository';

/** The occupation fee order list and detail, limited to the stations of the caller's organisations. */
export class OccupationOrdersService {
  constructor(
    private readonly repository: OccupationOrdersRepository,
    private readonly scopes: BillingDataScopeProvider,
  ) {}

  async page(
    me: AuthPrincipal,
    q: OccupationOrderQuery,
    page: number,
    size: number,
  ): Promise<OccupationOrderPage> {
    return this.repository.page(q, await this.scopes.scopeOf(me.userId), page, size);
  }

  /** The filtered list in pages of `batchSize`, newest first, up to `limit` rows (exports). */
  async *rows(
    me: AuthPrincipal,
    q: OccupationOrderQuery,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<OccupationOrderView[]> {
    const scope = await this.scopes.scopeOf(me.userId);
    yield* this.repository.batches(q, scope, batchSize, limit);
  }

  async get(me: AuthPrincipal, id: number): Promise<OccupationOrderView> {
    const order = await this.repository.get(id, await this.scopes.scopeOf(me.userId));
    // Outside the caller's scope reads the same as missing: no hint that the order exists.
    if (!order)
      throw new OccupationOrdersException(
        OccupationOrdersErrorCode.NotFound,
        `Occupation fee order ${id} not found`,
      );
    return order;
  }
}
