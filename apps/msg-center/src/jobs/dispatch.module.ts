import { DynamicModule, Module } from '@nestjs/common';
import { MsgDomainModule } from '../msg-domain.module';
import { MessageDispatcher } from './message-dispatcher';
import { MSG_QUEUE_OPTIONS, MsgQueueOptions } from './queue.options';

/** Producing channel jobs (any process). */
@Module({})
export class DispatchModule {
  static forRoot(options: MsgQueueOptions): DynamicModule {
    return {
      module: DispatchModule,
      global: true,
      imports: [MsgDomainModule],
      providers: [{ provide: MSG_QUEUE_OPTIONS, useValue: options }, MessageDispatcher],
      exports: [MessageDispatcher, MSG_QUEUE_OPTIONS],
    };
  }
}
