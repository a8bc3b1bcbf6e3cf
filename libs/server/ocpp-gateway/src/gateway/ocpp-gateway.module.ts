import {
  Inject,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type BeforeApplicationShutdown,
} from '@nestjs/common';
import { OcppGateway, type OcppGatewayDeps, type OcppGatewaySettings } from './ocpp-gateway';
import { PileCommandRepository } from '@voltdepot/server-ocpp-commands';
import { CommandService } from '../commands/command.service';
import { MessageLogController } from '../message-log/message-log.controller';
import { MessageLogRepository } from '../message-log/message-log.repository';

export const OCPP_GATEWAY_OPTIONS = Symbol('OCPP_GATEWAY_OPTIONS');

export type OcppGatewayModuleOptions = {
  /** Resolves the shared process resources (DataSource, Redis, EventBus, Logger), typically from other providers. */
  useFactory: (
    ...args: never[]
  ) =>
    | Promise<OcppGatewayDeps & { settings?: OcppGatewaySettings }>
    | (OcppGatewayDeps & { settings?: OcppGatewaySettings });
  inject?: (string | symbol | (abstract new (...args: never[]) => unknown))[];
};

/** Starts the OCPP WebSocket server with the application and closes it on shutdown. */
class OcppGatewayLifecycle implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(OcppGateway) private readonly gateway: OcppGateway) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.gateway.start();
  }

  /** Before any module's shutdown hook, so the database, Redis and bus outlive the piles' last messages. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.gateway.stop();
  }
}

/**
 * ```ts
 * OcppGatewayModule.forRootAsync({
 *   inject: [DATA_SOURCE, REDIS, EVENT_BUS, LOGGER, CONFIG],
 *   useFactory: (dataSource, redis, bus, logger, config) => ({ dataSource, redis, bus, logger, settings: config }),
 * })
 * ```
 * Exports `OcppGateway`, `CommandService` (`sendCommand(chargePointId, action, params, timeoutMs)`) and
 * `PileCommandRepository` (the `pile_command` journal). Serves the message log query
 * (`MessageLogController`, permission `ocpp:messageLog:query`): the application must install the
 * shared guard (AuthGuardModule), as the gateway's AppModule does.
 */
@Module({})
export class OcppGatewayModule {
  static forRootAsync(options: OcppGatewayModuleOptions): DynamicModule {
    return {
      module: OcppGatewayModule,
      controllers: [MessageLogController],
      providers: [
        { provide: OCPP_GATEWAY_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] },
        {
          provide: OcppGateway,
          useFactory: (resolved: OcppGatewayDeps & { settings?: OcppGatewaySettings }) =>
            new OcppGateway(resolved, resolved.settings),
          inject: [OCPP_GATEWAY_OPTIONS],
        },
        {
          provide: CommandService,
          useFactory: (gateway: OcppGateway) => gateway.commands,
          inject: [OcppGateway],
        },
        {
          provide: PileCommandRepository,
          useFactory: (gateway: OcppGateway) => gateway.commandJournal,
          inject: [OcppGateway],
        },
        {
          provide: MessageLogRepository,
          useFactory: (gateway: OcppGateway) => gateway.messageLogQuery,
          inject: [OcppGateway],
        },
        OcppGatewayLifecycle,
      ],
      exports: [OcppGateway, CommandService, PileCommandRepository],
    };
  }
}
