import { DynamicModule, Module } from '@nestjs/common';
import { PushPublisher, STOMP_FANOUT_CHANNEL } from './push.publisher';
import { StompHandlerRegistry } from './stomp-handlers';
import { StompSubscriptionGuards } from './subscription-guards';

/** Publishing to STOMP sessions (any process), the SEND handler and SUBSCRIBE guard registries. Global. */
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
        StompSubscriptionGuards,
      ],
      exports: [PushPublisher, StompHandlerRegistry, StompSubscriptionGuards],
    };
  }
}
