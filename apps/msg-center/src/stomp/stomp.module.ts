import { DynamicModule, Module } from '@nestjs/common';
import { STOMP_SERVER_OPTIONS, StompServer, StompServerOptions } from './stomp.server';

/**
 * The STOMP endpoint /ms/ws on the HTTP server (main process only). Needs PushModule and the auth guard
 * module. Global, so that areas with feeds of their own (live monitoring) can deliver to local sessions.
 */
@Module({})
export class StompModule {
  static forRoot(options: StompServerOptions): DynamicModule {
    return {
      module: StompModule,
      global: true,
      providers: [{ provide: STOMP_SERVER_OPTIONS, useValue: options }, StompServer],
      exports: [StompServer],
    };
  }
}
