import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { LogRepository } from './log.repository';
import { OperationLogMiddleware } from './operation-log.middleware';

/**
 * Records every mutating request of the app it is imported into in `sys_operation_log` (see
 * OperationLogMiddleware). Needs a global `DataSource` on the identity database. Imported by the
 * identity module (api, which reads and writes the logs through the LogRepository it exports) and by
 * msg-center, so both services write the same operation log.
 */
@Module({ providers: [LogRepository, OperationLogMiddleware], exports: [LogRepository] })
export class OperationLogModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(OperationLogMiddleware).forRoutes('{*splat}');
  }
}
