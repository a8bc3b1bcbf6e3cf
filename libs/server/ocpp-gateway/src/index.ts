// First, before anything else of the library loads: the gateway process's V8 settings (v8-flags.ts has a
// side effect). The gateway's entry points import this library first for that reason; keep this line first.
export { GATEWAY_V8_FLAGS } from './v8-flags';
export { GATEWAY_NODE_OPTIONS, missingNodeOptions } from './node-options';

export { OcppGateway, type OcppGatewayDeps, type OcppGatewaySettings } from './gateway/ocpp-gateway';
export { OcppGatewayModule, type OcppGatewayModuleOptions } from './gateway/ocpp-gateway.module';
export {
  checkOcppSecurity,
  ocppGatewayConfigShape,
  ocppGatewayEnvSchema,
  type OcppGatewayEnv,
} from './gateway/ocpp-gateway.config';
export { CommandService } from './commands/command.service';
export { PileCommandsController } from './commands/pile-commands.controller';
