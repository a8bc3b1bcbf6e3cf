import { performance } from 'node:perf_hooks';
import { createRPCError } from 'ocpp-rpc';
import type { Logger } from 'pino';
import { ChargePointActions, type ChargePointAction } from '@voltdepot/shared-ocpp';
import type { PileSession } from '../connection/pile-session';
import type { GatewayMetrics } from '../metrics/gateway.metrics';
import type { CallContext, OcppHandler, OcppHandlers } from './ocpp-handler';
import { mayPileSend } from './registration-gate';
import { findUnstorableValue, storableText } from '../persistence/storable-values';

type RpcCall = { messageId?: string; params?: unknown };

export type OcppRouterOptions = {
  /** Called for every call a pile makes (last-seen bookkeeping). */
  onCall?: (session: PileSession) => void;
  /**
   * Calls of one pile waiting for their turn, at most. OCPP wants one call in flight per direction;
   * a few more are tolerated (answered in order), beyond that a call is refused.
   */
  maxQueuedCalls?: number;
  metrics?: GatewayMetrics;
};

/**
 * Binds the charge-point actions to their handlers on one connection. Calls of one pile run strictly
 * one after another (ocpp-rpc would run them concurrently), so a pile's messages take effect in the
 * order it sent them. Schema validation has already happened (strict mode). A pile that is not
 * accepted may send only what OCPP 1.6 allows it (registration-gate.ts); anything else gets a
 * SecurityError. A schema-valid value the gateway cannot store (persistence/storable-values.ts) gets a
 * PropertyConstraintViolation. An unexpected failure is logged and answered with an InternalError CallError
 * without internals, never a crash.
 */
export class OcppRouter {
  constructor(
    private readonly handlers: OcppHandlers,
    private readonly logger: Logger,
    private readonly options: OcppRouterOptions = {},
  ) {
    const missing = ChargePointActions.filter((action) => typeof handlers[action] !== 'function');
    if (missing.length) throw new Error(`OCPP router: no handler for ${missing.join(', ')}`);
  }

  /**
   * Bind the handlers to the session's connection. Calls wait for `ready` (the connection's own
   * bookkeeping, e.g. the PileConnected event) so that a pile's events are recorded in the order things
   * happened. Returns `settled()`, which resolves once every call received so far has been handled.
   */
  attach(
    session: PileSession,
    ready: Promise<unknown> = Promise.resolve(),
  ): { settled: () => Promise<void> } {
    let tail: Promise<unknown> = ready.catch(() => undefined);
    let queued = 0;
    const maxQueued = this.options.maxQueuedCalls ?? 5;
    const serialized = <T>(work: () => Promise<T>): Promise<T> => {
      const run = tail.then(work, work);
      tail = run.catch(() => undefined);
      return run;
    };
    for (const action of ChargePointActions) {
      const handler = this.handlers[action] as OcppHandler<ChargePointAction>;
      session.client.handle(action, ({ messageId, params }: RpcCall) => {
        if (queued >= maxQueued) {
          this.logger.warn(
            { chargePointId: session.chargePointId, action, messageId, queued },
            'call refused: too many calls in flight',
          );
          throw createRPCError(
            'GenericError',
            `Too many calls in flight (${queued}); send the next call after the answer to the previous one`,
            {},
          );
        }
        queued++;
        const started = performance.now();
        return serialized(() => this.dispatch(action, handler, session, messageId ?? '', params)).finally(
          () => {
            queued--;
            this.options.metrics?.callHandled(action, (performance.now() - started) / 1000);
          },
        );
      });
    }
    return { settled: () => tail.then(() => undefined) };
  }

  private async dispatch(
    action: ChargePointAction,
    handler: OcppHandler<ChargePointAction>,
    session: PileSession,
    messageId: string,
    params: unknown,
  ): Promise<Record<string, unknown>> {
    this.options.onCall?.(session);
    if (!mayPileSend(session, action)) {
      const status = session.registrationStatus ?? 'never booted';
      this.logger.warn(
        { chargePointId: session.chargePointId, action, messageId, registrationStatus: status },
        'call refused: pile not accepted',
      );
      throw createRPCError(
        'SecurityError',
        `${action} refused: the pile is not accepted (${status}); only BootNotification is allowed`,
        {},
      );
    }
    const unstorable = findUnstorableValue(params);
    if (unstorable) {
      this.logger.warn(
        { chargePointId: session.chargePointId, action, messageId, problem: unstorable },
        'call refused: a value cannot be stored',
      );
      throw createRPCError('PropertyConstraintViolation', unstorable, {});
    }
    const context: CallContext = {
      session,
      chargePointId: session.chargePointId,
      messageId,
      correlationId: `${session.chargePointId}:${storableText(messageId)}`,
      receivedAt: new Date(),
    };
    try {
      return (await handler(params as never, context)) as Record<string, unknown>;
    } catch (error) {
      if (isRpcError(error)) throw error;
      this.logger.error(
        { err: error, chargePointId: session.chargePointId, action, messageId },
        'OCPP handler failed',
      );
      throw createRPCError('InternalError', 'Internal error', {});
    }
  }
}

function isRpcError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { rpcErrorCode?: unknown }).rpcErrorCode === 'string'
  );
}
