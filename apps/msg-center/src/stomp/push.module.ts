import { DynamicModule, Module } from '@nestjs/common';
import { PushPublisher, STOMP_FANOUT_CHANNEL } from './push.publisher';
import { StompHandlerRegistry } from './stomp-handlers';

/** Publishing to STOMP sessions (any process) and the SEND handler registry. Global. */
@Module({})
export class PushModule {
  static forRoot(options: { fanoutChannel: string }): DynamicModule {
    return {
      module: PushModule,
      global: true,
      providers: [
        { provide: STOMP_FANOUT_CHANNEL, useValue: options.fanoutChannel },
        PushPublisher,
        StompHandlerRegistry,
      ],
      exports: [PushPublisher, StompHandlerRegistry],
    };
  }
}
