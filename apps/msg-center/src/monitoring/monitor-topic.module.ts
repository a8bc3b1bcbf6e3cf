import { DynamicModule, Module } from '@nestjs/common';
import { PERMISSION_LOOKUP, type PermissionLookup } from '@voltdepot/server-core';
import { DataScopeService } from '@voltdepot/server-identity';
import { MonitoringAssetsRepository, StationWatchPolicy } from '@voltdepot/server-monitoring';
import { DataSource } from 'typeorm';
import { MONITOR_TOPIC_OPTIONS, MonitorTopicRelay, type MonitorTopicOptions } from './monitor-topic.relay';

/** Live monitoring's STOMP topics (HTTP process only; needs PushModule and the auth guard module). */
@Module({})
export class MonitorTopicModule {
  static forRoot(options: MonitorTopicOptions): DynamicModule {
    return {
      module: MonitorTopicModule,
      providers: [
        { provide: MONITOR_TOPIC_OPTIONS, useValue: options },
        {
          provide: StationWatchPolicy,
          inject: [DataSource, PERMISSION_LOOKUP],
          useFactory: (db: DataSource, permissions: PermissionLookup) =>
            new StationWatchPolicy(new MonitoringAssetsRepository(db), new DataScopeService(db), permissions),
        },
        MonitorTopicRelay,
      ],
    };
  }
}
