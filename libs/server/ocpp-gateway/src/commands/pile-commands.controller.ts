import { Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiDoc, RequirePermissions, ZodBody, ZodParams } from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import type { CentralSystemAction } from '@voltdepot/shared-ocpp';
import { PileCommandRepository, type PileCommandRecord } from '@voltdepot/server-ocpp-commands';
import { CommandService } from './command.service';
import {
  commandBodySchema,
  commandPageParamsSchema,
  commandParamsSchema,
  commandResultSchema,
  pileCommandRecordPageSchema,
  PILE_COMMAND_PERMISSION,
  type CommandBody,
  type CommandPageParams,
  type CommandParams,
  type CommandResultDto,
} from './dto/pile-command.dto';

/**
 * Operators' remote commands to a pile (Reset, RemoteStartTransaction, ...) and their journal.
 * The pile may be connected to any replica: CommandService routes the call there.
 */
@RequirePermissions(PILE_COMMAND_PERMISSION)
@Controller('api/pile/:chargePointId')
export class PileCommandsController {
  constructor(
    @Inject(CommandService) private readonly commands: CommandService,
    @Inject(PileCommandRepository) private readonly journal: PileCommandRepository,
  ) {}

  /** 400 unknown action or bad parameters, 409 pile offline, 502 the pile answered a CallError, 504 no answer. */
  @ApiDoc({
    summary:
      'Send an OCPP command to a pile and answer what it answered (409 offline, 502 CallError, 504 no answer)',
    response: commandResultSchema,
    errors: [404, 409, 502, 504],
  })
  @Post('command/:action')
  @HttpCode(200)
  async send(
    @ZodParams(commandParamsSchema) { chargePointId, action }: CommandParams,
    @ZodBody(commandBodySchema) body: CommandBody,
  ): Promise<CommandResultDto> {
    const { timeoutMs, ...params } = body;
    const response: unknown = await this.commands.sendCommand(
      chargePointId,
      action as CentralSystemAction,
      params as never,
      timeoutMs,
    );
    return { status: 'completed', response };
  }

  @ApiDoc({ summary: "The pile's command journal, newest first", response: pileCommandRecordPageSchema })
  @Get('commands/page/:page/size/:size')
  async page(
    @ZodParams(commandPageParamsSchema) { chargePointId, page, size }: CommandPageParams,
  ): Promise<GridPage<PileCommandRecord>> {
    return this.journal.page(chargePointId, page, size);
  }
}
