import type { AuthPrincipal } from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { BillingDataScopeProvider } from '../shared/data-scope';
import type { OrderOperationQuery, OrderOperationView } from './dto/order-operation.dto';
import type { OrderOperationsRepository } from './order-operations.repository';

/** The order operation log: operator actions on orders of the stations in the caller's data scope. */
export class OrderOperationsService {
  constructor(
    private readonly repository: OrderOperationsRepository,
    private readonly scopes: BillingDataScopeProvider,
  ) {}

  async page(
    me: AuthPrincipal,
    q: OrderOperationQuery,
    page: number,
    size: number,
  ): Promise<GridPage<OrderOperationView>> {
    return this.repository.page(q, await this.scopes.scopeOf(me.userId), page, size);
  }

  /** The filtered list in keyset batches of `batchSize`, newest first, up to `limit` rows (exports). */
  async *rows(
    me: AuthPrincipal,
    q: OrderOperationQuery,
    batchSize: number,
    limit: number,
  ): AsyncGenerator<OrderOperationView[]> {
    const scope = await this.scopes.scopeOf(me.userId);
    yield* this.repository.batches(q, scope, batchSize, limit);
  }
}
