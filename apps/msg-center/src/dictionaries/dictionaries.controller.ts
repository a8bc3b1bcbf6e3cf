import { Controller, Get, Injectable } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { dictTreeNodeSchema } from '../openapi/msg-schemas';
import { ApiDoc, Authenticated, ZodQuery } from '@voltdepot/server-core';
import type { DictTreeNode } from '@voltdepot/shared-contracts';
import { DataSource } from 'typeorm';
import { z } from 'zod';

const dictQuerySchema = z.object({
  /** One or more dictionary type codes, comma-separated (e.g. message_type); all when absent. */
  code: z.string().optional().describe('Dictionary type codes, comma-separated; all when absent'),
});

/** Reads the shared dictionaries (reference data owned by the identity area; read-only here). */
@Injectable()
export class DictionaryRepository {
  constructor(private readonly db: DataSource) {}

  async tree(codes: string[] | undefined): Promise<DictTreeNode[]> {
    const rows = (await this.db.query(
      `SELECT d.id::int AS id, d.parent_id::int AS "parentId", d.code, d.name, d.value
         FROM identity_dict_v d
         LEFT JOIN identity_dict_v p ON p.id = d.parent_id
        WHERE d.enabled AND ($1::text[] IS NULL OR COALESCE(p.code, d.code) = ANY($1::text[]))
        ORDER BY d.parent_id NULLS FIRST, d.sort, d.id`,
      [codes ?? null],
    )) as (DictTreeNode & { parentId: number | null })[];
    const byId = new Map<number, DictTreeNode>();
    const roots: DictTreeNode[] = [];
    for (const { parentId, ...row } of rows) {
      const node: DictTreeNode = { ...row, children: [] };
      byId.set(node.id, node);
      if (parentId === null) roots.push(node);
      else byId.get(parentId)?.children.push(node);
    }
    return roots;
  }
}

/**
 * `GET /dictionaries/dict/tree` of the spec's message service table. Its leading slash puts it at the
 * service root like `/m1/msg/group/search`: /ms/dictionaries/dict/tree; also answered under the message
 * service base, /ms/m1/msg/dictionaries/dict/tree.
 */
@ApiTags('msg: dictionaries')
@Authenticated()
@Controller()
export class DictionariesController {
  constructor(private readonly dictionaries: DictionaryRepository) {}

  @ApiDoc({
    summary: 'Dictionary trees (e.g. message_type)',
    response: z.array(dictTreeNodeSchema),
  })
  @Get(['ms/dictionaries/dict/tree', 'ms/m1/msg/dictionaries/dict/tree'])
  tree(@ZodQuery(dictQuerySchema) query: z.infer<typeof dictQuerySchema>): Promise<DictTreeNode[]> {
    const codes = query.code
      ?.split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    return this.dictionaries.tree(codes?.length ? codes : undefined);
  }
}
