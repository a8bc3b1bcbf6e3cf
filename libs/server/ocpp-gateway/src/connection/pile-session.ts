import type { RPCClient } from 'ocpp-rpc';
import type { ChargePointAction, RegistrationStatus } from '@voltdepot/shared-ocpp';
import type { PileState } from './pile-registry.repository';

/** One authenticated WebSocket connection of a pile on this replica. */
export type PileSession = {
  /** Unique per connection; a replaced connection keeps its own id so its cleanup cannot hit the new one. */
  sessionId: string;
  chargePointId: string;
  /** Registry state at handshake time, then as the registry changes; BootNotification re-reads it too. */
  registryState: PileState;
  /**
   * The answer to the pile's last BootNotification (on this or an earlier connection; undefined: it
   * never booted). Anything but Accepted limits what the pile may send (see registration-gate.ts).
   */
  registrationStatus?: RegistrationStatus;
  /** The answer to the pile's last BootNotification itself, before the registry's cap (registrationOnConnect). */
  lastBoot?: RegistrationStatus;
  /**
   * Messages a Pending pile was asked for with TriggerMessage (OCPP 1.6 §4.2.1 lets it send those),
   * with the time until which the permission holds.
   */
  triggered?: Map<ChargePointAction, number>;
  remoteAddress?: string;
  connectedAt: Date;
  /**
   * Order of the connections accepted by this replica (increasing): of two connections of one pile, the
   * later one wins, whichever finishes registering first.
   */
  sequence: number;
  client: RPCClient;
};
