import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  type AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ValidationException,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import {
  MONITOR_PERMISSIONS,
  PILE_COMMAND_PERMISSION,
  type MonitorPilePage,
  type MonitorStationSummary,
  type MonitorStationView,
  type MonitorVehiclePage,
  type PileCommandResult,
} from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { PileCommandSender } from '../commands/pile-command.sender';
import {
  anyCommandBodySchema,
  commandBodySchemas,
  commandParamsSchema,
  pageParamsSchema,
  pileQuerySchema,
  stationParamsSchema,
  vehicleQuerySchema,
  type CommandParams,
  type PageParams,
  type PileQuery,
  type StationParams,
  type VehicleQuery,
} from './monitoring.dto';
import { MonitoringService } from './monitoring.service';
import {
  monitorPilePageSchema,
  monitorStationOptionSchema,
  monitorStationSummarySchema,
  monitorStationViewSchema,
  monitorVehiclePageSchema,
  pileCommandResultSchema,
} from './monitoring.views';

/**
 * Live monitoring (business-areas §2): station monitoring with its map, pile monitoring, the bus list,
 * and pile commands. Every read is limited to the caller's data scope; a station or pile outside it
 * answers 404. Changes are pushed over STOMP (`/topic/monitor/station/{id}`, msg-center).
 */
@ApiTags('operation: monitoring')
@ApiBearerAuth()
@Controller('api/monitor')
export class MonitoringController {
  constructor(
    @Inject(MonitoringService) private readonly monitoring: MonitoringService,
    @Inject(PileCommandSender) private readonly commands: PileCommandSender,
  ) {}

  /** Stations of the scope with their guns counted by status (the map's markers). */
  @ApiDoc({
    summary: 'Stations of the scope with their guns counted by status',
    response: z.array(monitorStationSummarySchema),
  })
  @Get('station/list')
  @RequirePermissions(MONITOR_PERMISSIONS.station)
  stations(@CurrentPrincipal() me: AuthPrincipal): Promise<MonitorStationSummary[]> {
    return this.monitoring.stationSummaries(me.userId);
  }

  /** One station's piles and gun cards. */
  @ApiDoc({ summary: "One station's piles and gun cards", response: monitorStationViewSchema, errors: [404] })
  @Get('station/:id')
  @RequirePermissions(MONITOR_PERMISSIONS.station)
  station(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(stationParamsSchema) { id }: StationParams,
  ): Promise<MonitorStationView> {
    return this.monitoring.stationView(me.userId, id);
  }

  /** Stations to filter the pile monitor by. */
  @ApiDoc({
    summary: 'Stations to filter the pile monitor by',
    response: z.array(monitorStationOptionSchema),
  })
  @Get('pile/stations')
  @RequirePermissions(MONITOR_PERMISSIONS.pile)
  pileStations(@CurrentPrincipal() me: AuthPrincipal): Promise<{ id: number; name: string }[]> {
    return this.monitoring.stationOptions(me.userId);
  }

  /** Hosts with their guns; `stationId`, `keyword`, `online`, `gunStatus` filter. */
  @ApiDoc({ response: monitorPilePageSchema })
  @Get('pile/page/:page/size/:size')
  @RequirePermissions(MONITOR_PERMISSIONS.pile)
  piles(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pageParamsSchema) page: PageParams,
    @ZodQuery(pileQuerySchema) query: PileQuery,
  ): Promise<MonitorPilePage> {
    return this.monitoring.pilePage(me.userId, query, page);
  }

  /** The bus list: SoC and charging status of each vehicle; `keyword`, `chargeStatus`, `lowSoc` filter. */
  @ApiDoc({
    summary: 'The bus list: SoC and charging status of each vehicle',
    response: monitorVehiclePageSchema,
  })
  @Get('vehicle/page/:page/size/:size')
  @RequirePermissions(MONITOR_PERMISSIONS.bus)
  vehicles(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pageParamsSchema) page: PageParams,
    @ZodQuery(vehicleQuerySchema) query: VehicleQuery,
  ): Promise<MonitorVehiclePage> {
    return this.monitoring.vehiclePage(me.userId, query, page);
  }

  /**
   * Send a command to a pile of the caller's scope and return what the pile answered: 400 bad action or
   * body, 404 pile not in scope, 409 pile offline, 502 the pile answered a CallError, 504 no answer.
   */
  @ApiDoc({
    summary:
      'Send a command to a pile and answer what it answered (409 offline, 502 CallError, 504 no answer)',
    body: anyCommandBodySchema,
    response: pileCommandResultSchema,
    errors: [404, 409, 502, 504],
  })
  @Post('pile/:chargePointId/command/:action')
  @HttpCode(200)
  @RequirePermissions(PILE_COMMAND_PERMISSION)
  async command(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(commandParamsSchema) { chargePointId, action }: CommandParams,
    @Body() body: unknown,
  ): Promise<PileCommandResult> {
    const parsed = commandBodySchemas[action].safeParse(body ?? {});
    if (!parsed.success) throw ValidationException.fromZod(parsed.error);
    await this.monitoring.requirePile(me.userId, chargePointId);
    const { timeoutMs, ...params } = parsed.data;
    const response = await this.commands.send(chargePointId, action, params, timeoutMs);
    return { status: 'completed', response };
  }
}
