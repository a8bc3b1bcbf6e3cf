import { DynamicModule, Module } from '@nestjs/common';
import type { MsgCenterConfig } from './app.config';
import { coreImports } from './app.module';
import { ChannelsModule } from './channels/channels.module';

/** The worker process: channel queues' processors. Shares every module but HTTP and STOMP with main.ts. */
@Module({})
export class WorkerModule {
  static register(config: MsgCenterConfig): DynamicModule {
    return { module: WorkerModule, imports: [...coreImports(config, 'worker'), ChannelsModule] };
  }
}
