import { type DynamicModule, Module } from '@nestjs/common';
import { businessDayOf, OrderFiguresReader } from '@voltdepot/server-billing';
import { BusinessTimeZoneReader, DataScopeService } from '@voltdepot/server-identity';
import { MonitoringService } from '@voltdepot/server-monitoring';
import { DataSource } from 'typeorm';
import { OverviewController } from './overview.controller';
import { OverviewService } from './overview.service';

/**
 * The home page's figures (GET /api/overview/today): a composition of the areas' published reads, so
 * it lives in the composition root. `monitoring` is the app's MonitoringModule (it exports the service
 * whose live counts this reads); billing's and identity's reads need only the DataSource.
 */
@Module({})
export class OverviewModule {
  static register(monitoring: DynamicModule): DynamicModule {
    return {
      module: OverviewModule,
      imports: [monitoring],
      controllers: [OverviewController],
      providers: [
        {
          provide: OverviewService,
          inject: [DataSource, MonitoringService],
          useFactory: (db: DataSource, live: MonitoringService) =>
            new OverviewService({
              live,
              orders: OrderFiguresReader.over(db, new DataScopeService(db)),
              timeZone: new BusinessTimeZoneReader(db),
              businessDayOf,
            }),
        },
      ],
    };
  }
}
