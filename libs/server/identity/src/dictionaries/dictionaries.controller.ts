import { Controller, Delete, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  Authenticated,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { z } from 'zod';
import { IdParams, idParamsSchema } from '../shared/schemas';
import {
  CreateDictDto,
  createDictSchema,
  dictNodeSchema,
  dictTreeQuerySchema,
  dictTypeParamsSchema,
  UpdateDictDto,
  updateDictSchema,
  type DictNode,
} from './dict.dto';
import { DictionariesService } from './dictionaries.service';

@ApiTags('sys: dictionaries')
@ApiBearerAuth()
@Controller('api/dict')
export class DictionariesController {
  constructor(private readonly dicts: DictionariesService) {}

  /** Types with their items; `?code=message_type` for one type. Every screen reads options here. */
  @ApiDoc({ summary: 'Dictionary types with their items', response: z.array(dictNodeSchema) })
  @Get('tree')
  @Authenticated()
  tree(@ZodQuery(dictTreeQuerySchema) q: z.infer<typeof dictTreeQuerySchema>): Promise<DictNode[]> {
    return this.dicts.tree(q.code);
  }

  /** The enabled items of one type. */
  @ApiDoc({ summary: 'The enabled items of one type', response: z.array(dictNodeSchema) })
  @Get('type/:code')
  @Authenticated()
  items(@ZodParams(dictTypeParamsSchema) p: z.infer<typeof dictTypeParamsSchema>): Promise<DictNode[]> {
    return this.dicts.items(p.code);
  }

  @ApiDoc({ response: dictNodeSchema, errors: [404, 409] })
  @Post()
  @RequirePermissions('sys:dict:add')
  create(@ZodBody(createDictSchema) dto: CreateDictDto): Promise<DictNode> {
    return this.dicts.create(dto);
  }

  @ApiDoc({ response: dictNodeSchema, errors: [404, 409] })
  @Put(':id')
  @RequirePermissions('sys:dict:edit')
  update(
    @ZodParams(idParamsSchema) p: IdParams,
    @ZodBody(updateDictSchema) dto: UpdateDictDto,
  ): Promise<DictNode> {
    return this.dicts.update(p.id, dto);
  }

  @ApiDoc({ errors: [404, 409] })
  @Delete(':id')
  @HttpCode(204)
  @RequirePermissions('sys:dict:delete')
  async remove(@ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    await this.dicts.remove(p.id);
  }
}
