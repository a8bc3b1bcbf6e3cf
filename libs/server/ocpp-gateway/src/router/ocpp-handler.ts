import type { ChargePointAction, ChargePointMessages } from '@voltdepot/shared-ocpp';
import type { PileSession } from '../connection/pile-session';

/** What a handler knows about the call it answers. */
export type CallContext = {
  session: PileSession;
  chargePointId: string;
  messageId: string;
  /** Ties events and log lines to this message (the OCPP message id prefixed by the pile). */
  correlationId: string;
  receivedAt: Date;
};

export type OcppHandler<A extends ChargePointAction> = (
  request: ChargePointMessages[A][0],
  context: CallContext,
) => Promise<ChargePointMessages[A][1]>;

/** One handler per charge-point action; the router refuses to start with a gap. */
export type OcppHandlers = { [A in ChargePointAction]: OcppHandler<A> };
