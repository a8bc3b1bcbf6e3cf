import { DynamicModule, Module } from '@nestjs/common';
import type { MsgCenterConfig } from './app.config';
import { AlertEvaluationModule } from './alerts/evaluation/alert-evaluation.module';
import { coreImports } from './app.module';
import { ChannelsModule } from './channels/channels.module';

/**
 * The worker process: channel queues' processors and the alert checks. Shares every module but HTTP and
 * STOMP with main.ts.
 */
@Module({})
export class WorkerModule {
  static register(config: MsgCenterConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [...coreImports(config, 'worker'), ChannelsModule, AlertEvaluationModule],
    };
  }
}
