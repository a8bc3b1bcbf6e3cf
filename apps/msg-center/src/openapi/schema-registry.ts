import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { isZodOptional, zodToOpenApi } from '@voltdepot/server-core';
import { z } from 'zod';

/**
 * Named schemas (components) of msg-center's answers: a registered zod schema becomes a `$ref` wherever it
 * is used, so the generated client has one type per name and the recursive `DictTreeNode` can be described.
 * The conversion itself is core's `zodToOpenApi`; only the containers a registered schema can sit in
 * (objects, arrays, nullable, optional, lazy) are walked here, because core's converter inlines everything.
 */
export class SchemaRegistry {
  private readonly names = new WeakMap<z.ZodTypeAny, string>();
  private readonly defined = new Map<string, SchemaObject>();

  /** Registers `schema` under `name` and returns it, so declarations stay one expression. */
  named<S extends z.ZodTypeAny>(name: string, schema: S): S {
    this.names.set(schema, name);
    return schema;
  }

  /** Every component referenced so far. */
  get components(): Record<string, SchemaObject> {
    return Object.fromEntries([...this.defined.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The OpenAPI schema of a zod schema; registered schemas become references to their components. */
  toSchema(schema: z.ZodTypeAny): SchemaObject | ReferenceObject {
    const name = this.names.get(schema);
    if (name === undefined) return this.convert(schema);
    if (!this.defined.has(name)) {
      this.defined.set(name, {}); // a recursive use while converting refers to it
      this.defined.set(name, this.convert(schema));
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  private convert(schema: z.ZodTypeAny): SchemaObject {
    const described = (out: SchemaObject): SchemaObject =>
      schema.description === undefined ? out : { ...out, description: schema.description };
    if (schema instanceof z.ZodObject) {
      const shape = schema.shape as Record<string, z.ZodTypeAny>;
      const required = Object.keys(shape).filter((key) => !isZodOptional(shape[key]));
      return described({
        type: 'object',
        properties: Object.fromEntries(
          Object.entries(shape).map(([key, value]) => [key, this.toSchema(value)]),
        ),
        ...(required.length > 0 ? { required } : {}),
        ...(schema._def.unknownKeys === 'strict' ? { additionalProperties: false } : {}),
      });
    }
    if (schema instanceof z.ZodArray) {
      const { minLength, maxLength } = schema._def as z.ZodArrayDef;
      return described({
        type: 'array',
        items: this.toSchema(schema.element as z.ZodTypeAny),
        ...(minLength ? { minItems: minLength.value } : {}),
        ...(maxLength ? { maxItems: maxLength.value } : {}),
      });
    }
    if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional) {
      const inner = this.toSchema(schema.unwrap() as z.ZodTypeAny);
      if (schema instanceof z.ZodOptional) return described(inner as SchemaObject);
      return described('$ref' in inner ? { allOf: [inner], nullable: true } : { ...inner, nullable: true });
    }
    if (schema instanceof z.ZodLazy)
      return described(this.toSchema(schema.schema as z.ZodTypeAny) as SchemaObject);
    return zodToOpenApi(schema);
  }
}
