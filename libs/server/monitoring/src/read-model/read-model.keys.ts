/**
 * Where the monitoring read model lives in Redis, under one namespace (`{busPrefix}:mon`):
 *
 * | key                               | type | holds                                                       |
 * | --------------------------------- | ---- | ----------------------------------------------------------- |
 * | `epoch`                           | str  | the rebuild generation; its absence means the model is lost |
 * | `evt:{eventId}`                   | str  | an applied status event (7 days), so a redelivery is no-op  |
 * | `pile:{cp}`                       | hash | boot facts (last-writer-wins by time), last seen            |
 * | `pile:{cp}:conn`                  | zset | the latest connect/disconnect events, by time               |
 * | `pile:{cp}:connectors`            | set  | connector ids the pile reported                             |
 * | `gun:{cp}:{c}:status`             | zset | the latest status notifications of a connector, by time     |
 * | `gun:{cp}:{c}:txs`                | zset | its latest transactions, by start time                      |
 * | `tx:{cp}:{txId}`                  | hash | a transaction's facts and its latest samples                |
 * | `idtag:{idTag}`                   | zset | the latest transactions of a card (`{cp}|{txId}`)           |
 * | `seq`                             | str  | arrival counter: orders events with the same time stamp     |
 * | `feed` (pub/sub channel)          |      | pushes for msg-center (MonitorPush JSON)                    |
 */
export class ReadModelKeys {
  constructor(readonly namespace: string) {}

  static forBusPrefix(busPrefix: string): ReadModelKeys {
    return new ReadModelKeys(`${busPrefix}:mon`);
  }

  get epoch(): string {
    return `${this.namespace}:epoch`;
  }

  get seq(): string {
    return `${this.namespace}:seq`;
  }

  get feedChannel(): string {
    return `${this.namespace}:feed`;
  }

  /** Every key of the model (for SCAN). */
  get pattern(): string {
    return `${this.namespace}:*`;
  }

  eventMarker(eventId: string): string {
    return `${this.namespace}:evt:${eventId}`;
  }

  pile(chargePointId: string): string {
    return `${this.namespace}:pile:${chargePointId}`;
  }

  pileConnections(chargePointId: string): string {
    return `${this.namespace}:pile:${chargePointId}:conn`;
  }

  pileConnectors(chargePointId: string): string {
    return `${this.namespace}:pile:${chargePointId}:connectors`;
  }

  gunStatuses(chargePointId: string, connectorId: number): string {
    return `${this.namespace}:gun:${chargePointId}:${connectorId}:status`;
  }

  gunTransactions(chargePointId: string, connectorId: number): string {
    return `${this.namespace}:gun:${chargePointId}:${connectorId}:txs`;
  }

  transaction(chargePointId: string, transactionId: number | string): string {
    return `${this.namespace}:tx:${chargePointId}:${transactionId}`;
  }

  idTag(idTag: string): string {
    return `${this.namespace}:idtag:${idTag}`;
  }
}
