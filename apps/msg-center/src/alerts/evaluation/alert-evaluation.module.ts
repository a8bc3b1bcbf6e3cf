import { Module } from '@nestjs/common';
import { MsgDomainModule } from '../../msg-domain.module';
import { AlertEvaluator } from './alert-evaluator';
import { AlertWorkers } from './alert-workers';

/** The alert checks and their schedule (worker process). Needs DispatchModule's options. */
@Module({ imports: [MsgDomainModule], providers: [AlertEvaluator, AlertWorkers], exports: [AlertEvaluator] })
export class AlertEvaluationModule {}
