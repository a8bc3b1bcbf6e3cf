import { apiSchemas, gridPageOf, view } from '@voltdepot/server-core';
import { z } from 'zod';
import type { AssetDefinition, ColumnKind } from './asset-definition';

/** What `AssetRepository.toView` makes of each kind of column. */
const VALUE_SCHEMAS: Record<ColumnKind, () => z.ZodTypeAny> = {
  text: () => z.string(),
  int: () => z.number().int(),
  numeric: () => z.number(),
  bool: () => z.boolean(),
  time: () => z.string().describe('HH:mm'),
  date: () => z.string().describe('YYYY-MM-DD'),
  timestamptz: () => z.string().describe('ISO 8601 instant'),
  intArray: () => z.array(z.number().int()),
};

function pascal(kind: string): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** The fields of a body schema, also behind refinements and transforms. */
function shapeOf(schema: z.ZodTypeAny): Record<string, z.ZodTypeAny> {
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodTypeAny>;
  if (schema instanceof z.ZodEffects) return shapeOf(schema.innerType() as z.ZodTypeAny);
  return {};
}

/** A value every saved row has: the create and the update body both require it, and neither takes null. */
function alwaysPresent(def: AssetDefinition, field: string): boolean {
  return [def.createSchema, def.updateSchema].every((schema) => {
    const value = shapeOf(schema)[field];
    return value !== undefined && !value.isOptional() && !value.isNullable();
  });
}

const views = new WeakMap<AssetDefinition, { row: z.ZodTypeAny; page: z.ZodTypeAny }>();

/**
 * The row a grid answers with (`<Kind>View`) and its page (`<Kind>Page`), derived from the definition as
 * `AssetRepository.toView` builds the row: id, the organisation of scoped rows, every column and computed
 * value by its kind, and the two timestamps. A column is nullable when the definition says so or either
 * body lets it be empty; computed values are nullable except lists (SQL coalesces them).
 */
export function assetViewSchemas(def: AssetDefinition): { row: z.ZodTypeAny; page: z.ZodTypeAny } {
  const known = views.get(def);
  if (known !== undefined) return known;
  const fields: Record<string, z.ZodTypeAny> = { id: z.number().int() };
  if (def.scoped) fields['organizationId'] = z.number().int();
  for (const column of def.columns) {
    const value = VALUE_SCHEMAS[column.kind]();
    fields[column.field] =
      column.nullable !== true && alwaysPresent(def, column.field) ? value : value.nullable();
  }
  for (const computed of def.computed ?? []) {
    const value = VALUE_SCHEMAS[computed.kind]();
    fields[computed.field] = computed.kind === 'intArray' ? value : value.nullable();
  }
  fields['createdAt'] = VALUE_SCHEMAS.timestamptz();
  fields['updatedAt'] = VALUE_SCHEMAS.timestamptz();
  const row = apiSchemas.named(`${pascal(def.kind)}View`, view(fields));
  const schemas = { row, page: gridPageOf(`${pascal(def.kind)}Page`, row) };
  views.set(def, schemas);
  return schemas;
}
