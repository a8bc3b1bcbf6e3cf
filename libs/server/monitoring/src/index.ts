export * from './monitoring.module';
export * from './monitoring.exception';
export {
  MonitoringAssetsRepository,
  type MonitoringDataScope,
  type MonitoringDataScopeProvider,
} from './assets/monitoring-assets.repository';
export { MonitorProjector, MONITOR_TOPICS, monitorGroup } from './read-model/monitor.projector';
export { ReadModelKeys } from './read-model/read-model.keys';
export { ReadModelStore } from './read-model/read-model.store';
export { MonitoringService } from './api/monitoring.service';
export type { LiveFigures } from './api/live-figures';
export { PileCommandSender } from './commands/pile-command.sender';
export {
  monitorFeedChannel,
  parseMonitorPush,
  StationWatchPolicy,
  stationOfTopic,
  type WatchDecision,
} from './push/station-watch';
