import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Authenticated, RequirePermissions, ZodBody, ZodParams, ZodQuery } from '@voltdepot/server-core';
import type { DictNode } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { IdParams, idParamsSchema } from '../shared/schemas';
import {
  CreateDictDto,
  createDictSchema,
  dictTreeQuerySchema,
  dictTypeParamsSchema,
  UpdateDictDto,
  updateDictSchema,
} from './dict.dto';
import { DictionariesService } from './dictionaries.service';

@ApiTags('sys: dictionaries')
@ApiBearerAuth()
@Controller('api/dict')
export class DictionariesController {
  constructor(private readonly dicts: DictionariesService) {}

  /** Types with their items; `?code=message_type` for one type. Every screen reads options here. */
  @Get('tree')
  @Authenticated()
  tree(@ZodQuery(dictTreeQuerySchema) q: z.infer<typeof dictTreeQuerySchema>): Promise<DictNode[]> {
    return this.dicts.tree(q.code);
  }

  /** The enabled items of one type. */
  @Get('type/:code')
  @Authenticated()
  items(@ZodParams(dictTypeParamsSchema) p: z.infer<typeof dictTypeParamsSchema>): Promise<DictNode[]> {
    return this.dicts.items(p.code);
  }

  @Post()
  @RequirePermissions('sys:dict:add')
  create(@ZodBody(createDictSchema) dto: CreateDictDto): Promise<DictNode> {
    return this.dicts.create(dto);
  }

  @Put(':id')
  @RequirePermissions('sys:dict:edit')
  update(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(updateDictSchema) dto: UpdateDictDto,
  ): Promise<DictNode> {
    return this.dicts.update(p.id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions('sys:dict:delete')
  async remove(@ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    await this.dicts.remove(p.id);
  }
}
