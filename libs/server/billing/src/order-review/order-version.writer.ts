import type { EntityManager } from 'typeorm';
import { OrderAmended, type OrderFigures } from '@voltdepot/shared-events';
import { addToOutbox, createEnvelope } from '@voltdepot/server-messaging';
import {
  figuresOf,
  OrderVersionRepository,
  type OrderState,
  type VersionedOrder,
  type VersionMeta,
} from './order-version.repository';

/** `after` minus `before`, per figure (fen and Wh). */
export function differenceOf(before: OrderState, after: OrderState): Omit<OrderFigures, 'payStatus'> {
  const a = figuresOf(after);
  const b = figuresOf(before);
  return {
    meterStopWh: a.meterStopWh - b.meterStopWh,
    energyWh: a.energyWh - b.energyWh,
    electricityFen: a.electricityFen - b.electricityFen,
    serviceFen: a.serviceFen - b.serviceFen,
    totalFen: a.totalFen - b.totalFen,
  };
}

/**
 * Writes the next version of an order and its `order.amended` event (with the difference from the version
 * before) in the caller's transaction, so neither exists without the other. The order must be locked
 * (`OrderVersionRepository.lock`) in the transaction. The one way every later change of an order is made:
 * a review billing a held order, an operator's amendment, a lost stop completed by its StopTransaction.
 */
export class OrderVersionWriter {
  constructor(private readonly repository: Pick<OrderVersionRepository, 'saveVersion'>) {}

  /** The new version's number, or undefined when the request key had made its version already. */
  async write(
    m: EntityManager,
    order: VersionedOrder,
    next: OrderState,
    meta: VersionMeta,
    correlationId?: string,
  ): Promise<number | undefined> {
    const difference = differenceOf(order.state, next);
    if (!(await this.repository.saveVersion(m, order, next, meta, difference))) return undefined;
    const version = order.version + 1;
    await addToOutbox(m, [
      createEnvelope(
        OrderAmended,
        order.chargePointId,
        {
          orderNo: order.orderNo,
          chargePointId: order.chargePointId,
          connectorId: order.connectorId,
          transactionId: order.transactionId,
          version,
          kind: meta.kind,
          reason: meta.reason,
          amendedBy: meta.actorName,
          amendedAt: new Date().toISOString(),
          figures: figuresOf(next),
          difference,
          abnormalReasons: next.abnormalReasons,
          stoppedAt: next.stoppedAt,
          ...(order.idTag ? { idTag: order.idTag } : {}),
        },
        correlationId ? { correlationId } : {},
      ),
    ]);
    return version;
  }
}
