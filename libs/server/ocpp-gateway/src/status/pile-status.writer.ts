import type { DataSource } from 'typeorm';
import { createEnvelope } from '@voltdepot/server-messaging';
import {
  PileBooted,
  PileConnected,
  PileDisconnected,
  type PileBootedV1,
  type PileConnectedV1,
  type PileDisconnectedV1,
} from '@voltdepot/shared-events';
import type { RegistrationStatus, StatusNotificationRequest } from '@voltdepot/shared-ocpp';
import { GroupCommit, type GroupCommitOptions } from '../persistence/group-commit';
import type {
  PileEventItem,
  PileStatusRepository,
  StatusItem,
  StatusOutcome,
} from './pile-status.repository';

export type PileStatusWriterOptions = Pick<GroupCommitOptions, 'onBatch' | 'onError' | 'maxWaitMs'>;

/**
 * Pile lifecycle and connector status, written durably but in groups: a connect storm of thousands of
 * piles, or every pile reporting its guns after a restart, costs a few commits per batch instead of one
 * per message. Each call resolves only once its rows and events are committed.
 */
export class PileStatusWriter {
  private readonly events: GroupCommit<PileEventItem, void>;
  private readonly statuses: GroupCommit<StatusItem, StatusOutcome>;

  constructor(
    private readonly repository: PileStatusRepository,
    dataSource: DataSource,
    options: PileStatusWriterOptions = {},
  ) {
    this.events = new GroupCommit(dataSource, (m, items) => repository.recordEvents(m, items), {
      ...options,
      name: 'pile-events',
      maxBatch: 500,
      concurrency: 1,
    });
    this.statuses = new GroupCommit(dataSource, (m, items) => repository.recordStatuses(m, items), {
      ...options,
      name: 'connector-status',
      maxBatch: 500,
      concurrency: 1,
    });
  }

  get backlog(): number {
    return this.events.backlog + this.statuses.backlog;
  }

  lastRegistration(chargePointId: string): Promise<RegistrationStatus | undefined> {
    return this.repository.lastRegistration(chargePointId);
  }

  connected(payload: PileConnectedV1, correlationId: string): Promise<void> {
    return this.events.submit({
      envelope: createEnvelope(PileConnected, payload.chargePointId, payload, { correlationId }),
    });
  }

  disconnected(payload: PileDisconnectedV1, correlationId: string): Promise<void> {
    return this.events.submit({
      envelope: createEnvelope(PileDisconnected, payload.chargePointId, payload, { correlationId }),
    });
  }

  /** The PileBooted event, and the answer the pile got (kept for its later connections). */
  booted(payload: PileBootedV1, correlationId: string, bootedAt: Date): Promise<void> {
    return this.events.submit({
      envelope: createEnvelope(PileBooted, payload.chargePointId, payload, { correlationId }),
      boot: { ...payload, bootedAt: bootedAt.toISOString() },
    });
  }

  /**
   * Latest status kept, ConnectorStatusChanged announced, PileError / PileErrorCleared when the error
   * changes; resolves with the transactions it closed (the connector's first report after a reboot).
   */
  statusChanged(
    chargePointId: string,
    req: StatusNotificationRequest,
    receivedAt: Date,
    correlationId: string,
  ): Promise<StatusOutcome> {
    return this.statuses.submit({ chargePointId, req, receivedAt, correlationId });
  }

  async drain(): Promise<void> {
    await Promise.all([this.events.drain(), this.statuses.drain()]);
  }
}
