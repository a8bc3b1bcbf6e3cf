import { createRPCError } from 'ocpp-rpc';
import type { Logger } from 'pino';
import { ChargePointActions, type ChargePointAction } from '@voltdepot/shared-ocpp';
import type { PileSession } from '../connection/pile-session';
import type { CallContext, OcppHandler, OcppHandlers } from './ocpp-handler';

type RpcCall = { messageId?: string; params?: unknown };

/**
 * Binds the charge-point actions to their handlers on one connection. Calls of one pile run strictly
 * one after another (ocpp-rpc would run them concurrently), so a pile's messages take effect in the
 * order it sent them. Schema validation has already happened (strict mode); an unexpected failure is
 * logged and answered with an InternalError CallError without internals, never a crash.
 */
export class OcppRouter {
  constructor(
    private readonly handlers: OcppHandlers,
    private readonly logger: Logger,
    private readonly onCall?: (session: PileSession) => void,
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
    const serialized = <T>(work: () => Promise<T>): Promise<T> => {
      const run = tail.then(work, work);
      tail = run.catch(() => undefined);
      return run;
    };
    for (const action of ChargePointActions) {
      const handler = this.handlers[action] as OcppHandler<ChargePointAction>;
      session.client.handle(action, ({ messageId, params }: RpcCall) =>
        serialized(() => this.dispatch(action, handler, session, messageId ?? '', params)),
      );
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
    this.onCall?.(session);
    const context: CallContext = {
      session,
      chargePointId: session.chargePointId,
      messageId,
      correlationId: `${session.chargePointId}:${messageId}`,
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
