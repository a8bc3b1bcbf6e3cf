import type { RPCClient } from 'ocpp-rpc';
import type { RegistrationStatus } from '@voltdepot/shared-ocpp';
import type { PileState } from './pile-registry.repository';

/** One authenticated WebSocket connection of a pile on this replica. */
export type PileSession = {
  /** Unique per connection; a replaced connection keeps its own id so its cleanup cannot hit the new one. */
  sessionId: string;
  chargePointId: string;
  /** Registry state at handshake time; BootNotification re-reads the registry. */
  registryState: PileState;
  registrationStatus?: RegistrationStatus;
  remoteAddress?: string;
  connectedAt: Date;
  client: RPCClient;
};
