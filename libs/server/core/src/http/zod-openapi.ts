import type { SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

/** An OpenAPI 3.0 schema object, or a reference to a named one (`#/components/schemas/<name>`). */
export type OpenApiSchema = SchemaObject & { $ref?: string };

/**
 * `input`: what a client may send (a default makes a field optional, a transform is described by its
 * input); `output`: what a service answers (defaults are filled in, pipelines by their output).
 */
export type OpenApiSchemaMode = 'input' | 'output';

/**
 * The OpenAPI 3.0 schema of a zod schema, for the request bodies and queries that the zod pipes
 * validate: the documentation and the generated console client then describe exactly what the
 * server accepts. Covers the zod types the services use; anything else is documented as "any value"
 * rather than guessed.
 */
export function zodToOpenApi(schema: z.ZodTypeAny, mode: OpenApiSchemaMode = 'input'): OpenApiSchema {
  return new ZodOpenApiConverter(mode, () => undefined).toSchema(schema);
}

/** Whether a value may be left out (optional, or in `input` mode filled in by a default). */
export function isZodOptional(schema: z.ZodTypeAny, mode: OpenApiSchemaMode = 'input'): boolean {
  const def = schema._def as { typeName?: z.ZodFirstPartyTypeKind };
  switch (def.typeName) {
    case z.ZodFirstPartyTypeKind.ZodOptional:
    case z.ZodFirstPartyTypeKind.ZodAny:
    case z.ZodFirstPartyTypeKind.ZodUnknown:
    case z.ZodFirstPartyTypeKind.ZodUndefined:
      return true;
    case z.ZodFirstPartyTypeKind.ZodDefault:
    case z.ZodFirstPartyTypeKind.ZodCatch:
      return mode === 'input' || isZodOptional(innerOf(schema), mode);
    case z.ZodFirstPartyTypeKind.ZodEffects:
      // A transform's output is not described by zod: only its input can be said to be optional.
      return (
        (mode === 'input' || (schema as z.ZodEffects<z.ZodTypeAny>)._def.effect.type !== 'transform') &&
        isZodOptional(innerOf(schema), mode)
      );
    case z.ZodFirstPartyTypeKind.ZodPipeline: {
      const pipeline = schema as z.ZodPipeline<z.ZodTypeAny, z.ZodTypeAny>;
      return isZodOptional(mode === 'input' ? pipeline._def.in : pipeline._def.out, mode);
    }
    case z.ZodFirstPartyTypeKind.ZodNullable:
    case z.ZodFirstPartyTypeKind.ZodBranded:
    case z.ZodFirstPartyTypeKind.ZodReadonly:
    case z.ZodFirstPartyTypeKind.ZodLazy:
      return isZodOptional(innerOf(schema), mode);
    case z.ZodFirstPartyTypeKind.ZodUnion:
      return (schema as z.ZodUnion<[z.ZodTypeAny, ...z.ZodTypeAny[]]>).options.some((option) =>
        isZodOptional(option, mode),
      );
    default:
      return false;
  }
}

/**
 * Named schemas (the document's components): a schema registered with `named` becomes a `$ref`
 * wherever it is used, so shared shapes are described once and recursive ones (`z.lazy`) terminate.
 */
export class SchemaRegistry {
  private readonly names = new WeakMap<z.ZodTypeAny, string>();
  private readonly schemas = new Map<string, z.ZodTypeAny>();
  private readonly defined = new Map<string, OpenApiSchema>();
  private readonly defining = new Set<string>();

  /**
   * Registers `schema` under `name` and returns it, so declarations stay one expression. Names are
   * global to the registry: a second schema under a taken name throws (it would silently be described
   * as the first).
   */
  named<S extends z.ZodTypeAny>(name: string, schema: S): S {
    const taken = this.schemas.get(name);
    if (taken !== undefined && taken !== schema) {
      throw new Error(`OpenAPI schema name '${name}' is already taken by another schema`);
    }
    this.schemas.set(name, schema);
    this.names.set(schema, name);
    return schema;
  }

  /** Every component referenced so far, by name. */
  get components(): Record<string, OpenApiSchema> {
    return Object.fromEntries([...this.defined.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** The OpenAPI schema of a zod schema; registered sub-schemas become references to components. */
  toSchema(schema: z.ZodTypeAny, mode: OpenApiSchemaMode): OpenApiSchema {
    return new ZodOpenApiConverter(mode, (named, convert) => this.reference(named, convert)).toSchema(schema);
  }

  /** Whether a property may be left out in this mode. */
  isOptional(schema: z.ZodTypeAny, mode: OpenApiSchemaMode): boolean {
    return isZodOptional(schema, mode);
  }

  private reference(
    schema: z.ZodTypeAny,
    convert: (schema: z.ZodTypeAny) => OpenApiSchema,
  ): OpenApiSchema | undefined {
    const name = this.names.get(schema);
    if (name === undefined) return undefined;
    if (!this.defined.has(name) && !this.defining.has(name)) {
      this.defining.add(name);
      try {
        this.defined.set(name, convert(schema));
      } finally {
        this.defining.delete(name);
      }
    }
    return { $ref: `#/components/schemas/${name}` };
  }
}

/** The `$ref` of a named schema (defining it on first use), or undefined for an anonymous one. */
type Reference = (
  schema: z.ZodTypeAny,
  convert: (schema: z.ZodTypeAny) => OpenApiSchema,
) => OpenApiSchema | undefined;

class ZodOpenApiConverter {
  /** Lazy schemas being expanded: one met again inside itself is recursive and stops as "any value". */
  private readonly expanding = new Set<z.ZodTypeAny>();

  constructor(
    private readonly mode: OpenApiSchemaMode,
    private readonly reference: Reference,
  ) {}

  toSchema(schema: z.ZodTypeAny): OpenApiSchema {
    return this.reference(schema, (named) => this.describe(named)) ?? this.describe(schema);
  }

  private describe(schema: z.ZodTypeAny): OpenApiSchema {
    const result = this.convert(schema);
    const description = schema.description;
    return description && !result.description && result.$ref === undefined
      ? { ...result, description }
      : result;
  }

  private convert(schema: z.ZodTypeAny): OpenApiSchema {
    const def = schema._def as { typeName?: z.ZodFirstPartyTypeKind };
    switch (def.typeName) {
      case z.ZodFirstPartyTypeKind.ZodString:
        return stringSchema(schema as z.ZodString);
      case z.ZodFirstPartyTypeKind.ZodNumber:
        return numberSchema(schema as z.ZodNumber);
      case z.ZodFirstPartyTypeKind.ZodBigInt:
        return { type: 'integer', format: 'int64' };
      case z.ZodFirstPartyTypeKind.ZodBoolean:
        return { type: 'boolean' };
      case z.ZodFirstPartyTypeKind.ZodDate:
        return { type: 'string', format: 'date-time' };
      case z.ZodFirstPartyTypeKind.ZodLiteral: {
        const value = (schema as z.ZodLiteral<unknown>).value;
        return value === null
          ? { nullable: true, enum: [null] }
          : { type: typeOfValue(value), enum: [value] };
      }
      case z.ZodFirstPartyTypeKind.ZodEnum:
        return { type: 'string', enum: [...(schema as z.ZodEnum<[string, ...string[]]>).options] };
      case z.ZodFirstPartyTypeKind.ZodNativeEnum: {
        const values = nativeEnumValues((schema as z.ZodNativeEnum<z.EnumLike>).enum);
        const types = new Set(values.map(typeOfValue));
        return types.size === 1 ? { type: typeOfValue(values[0]), enum: values } : { enum: values };
      }
      case z.ZodFirstPartyTypeKind.ZodArray: {
        const array = schema as z.ZodArray<z.ZodTypeAny>;
        const checks = array._def as {
          minLength: { value: number } | null;
          maxLength: { value: number } | null;
          exactLength: { value: number } | null;
        };
        const min = checks.exactLength ?? checks.minLength;
        const max = checks.exactLength ?? checks.maxLength;
        return {
          type: 'array',
          items: this.toSchema(array.element),
          ...(min ? { minItems: min.value } : {}),
          ...(max ? { maxItems: max.value } : {}),
        };
      }
      case z.ZodFirstPartyTypeKind.ZodSet:
        return {
          type: 'array',
          uniqueItems: true,
          items: this.toSchema((schema as z.ZodSet<z.ZodTypeAny>)._def.valueType),
        };
      case z.ZodFirstPartyTypeKind.ZodTuple: {
        const items = (schema as z.ZodTuple).items as z.ZodTypeAny[];
        return {
          type: 'array',
          items: { anyOf: items.map((item) => this.toSchema(item)) },
          minItems: items.length,
          maxItems: items.length,
        };
      }
      case z.ZodFirstPartyTypeKind.ZodObject:
        return this.objectSchema(schema as z.AnyZodObject);
      case z.ZodFirstPartyTypeKind.ZodRecord:
        return {
          type: 'object',
          additionalProperties: this.toSchema((schema as z.ZodRecord).valueSchema as z.ZodTypeAny),
        };
      case z.ZodFirstPartyTypeKind.ZodNullable: {
        const inner = this.toSchema(innerOf(schema));
        // OpenAPI 3.0 ignores a reference's siblings: wrap it to add `nullable`.
        return inner.$ref === undefined ? { ...inner, nullable: true } : { allOf: [inner], nullable: true };
      }
      case z.ZodFirstPartyTypeKind.ZodDefault: {
        const inner = this.toSchema(innerOf(schema));
        if (this.mode === 'output' || inner.$ref !== undefined) return inner;
        const value: unknown = (schema as z.ZodDefault<z.ZodTypeAny>)._def.defaultValue();
        return isJsonValue(value) ? { ...inner, default: value } : inner;
      }
      case z.ZodFirstPartyTypeKind.ZodLazy: {
        if (this.expanding.has(schema)) return {}; // recursive and not named: "any value"
        this.expanding.add(schema);
        try {
          return this.toSchema(innerOf(schema));
        } finally {
          this.expanding.delete(schema);
        }
      }
      case z.ZodFirstPartyTypeKind.ZodPipeline: {
        const pipeline = schema as z.ZodPipeline<z.ZodTypeAny, z.ZodTypeAny>;
        return this.toSchema(this.mode === 'input' ? pipeline._def.in : pipeline._def.out);
      }
      // Wrappers, and refine/transform/preprocess (ZodEffects), are described by the inner schema (a
      // transform's output is unknown to zod).
      case z.ZodFirstPartyTypeKind.ZodOptional:
      case z.ZodFirstPartyTypeKind.ZodCatch:
      case z.ZodFirstPartyTypeKind.ZodBranded:
      case z.ZodFirstPartyTypeKind.ZodReadonly:
      case z.ZodFirstPartyTypeKind.ZodEffects:
        return this.toSchema(innerOf(schema));
      case z.ZodFirstPartyTypeKind.ZodUnion:
      case z.ZodFirstPartyTypeKind.ZodDiscriminatedUnion: {
        // zod takes the first option that matches, so several may: anyOf, not oneOf.
        const options = (schema as z.ZodUnion<[z.ZodTypeAny, ...z.ZodTypeAny[]]>).options as z.ZodTypeAny[];
        return { anyOf: options.map((option) => this.toSchema(option)) };
      }
      case z.ZodFirstPartyTypeKind.ZodIntersection: {
        const intersection = schema as z.ZodIntersection<z.ZodTypeAny, z.ZodTypeAny>;
        return { allOf: [this.toSchema(intersection._def.left), this.toSchema(intersection._def.right)] };
      }
      case z.ZodFirstPartyTypeKind.ZodNull:
        return { nullable: true, enum: [null] };
      default:
        return {}; // any value
    }
  }

  private objectSchema(schema: z.AnyZodObject): OpenApiSchema {
    const properties: Record<string, OpenApiSchema> = {};
    const required: string[] = [];
    for (const [key, value] of Object.entries(schema.shape as Record<string, z.ZodTypeAny>)) {
      properties[key] = this.toSchema(value);
      if (!isZodOptional(value, this.mode)) required.push(key);
    }
    const catchall = schema._def.catchall as z.ZodTypeAny;
    const unknownKeys = schema._def.unknownKeys as 'strict' | 'strip' | 'passthrough';
    return {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      // Strip drops other keys (a client may send them, they are ignored): nothing to say.
      ...(catchall._def.typeName !== z.ZodFirstPartyTypeKind.ZodNever
        ? { additionalProperties: this.toSchema(catchall) }
        : unknownKeys === 'strict'
          ? { additionalProperties: false }
          : unknownKeys === 'passthrough'
            ? { additionalProperties: {} }
            : {}),
    };
  }
}

/** The schema a wrapper (optional, nullable, default, effects, lazy, ...) stands for. */
function innerOf(schema: z.ZodTypeAny): z.ZodTypeAny {
  const def = schema._def as {
    typeName: z.ZodFirstPartyTypeKind;
    innerType?: z.ZodTypeAny;
    schema?: z.ZodTypeAny;
    type?: z.ZodTypeAny;
    getter?: () => z.ZodTypeAny;
  };
  if (def.typeName === z.ZodFirstPartyTypeKind.ZodLazy) return def.getter!();
  if (def.typeName === z.ZodFirstPartyTypeKind.ZodEffects) return def.schema!;
  if (def.typeName === z.ZodFirstPartyTypeKind.ZodBranded) return def.type!;
  return def.innerType!;
}

function stringSchema(schema: z.ZodString): OpenApiSchema {
  const result: OpenApiSchema = { type: 'string' };
  for (const check of schema._def.checks) {
    switch (check.kind) {
      case 'min':
        result.minLength = check.value;
        break;
      case 'max':
        result.maxLength = check.value;
        break;
      case 'length':
        result.minLength = check.value;
        result.maxLength = check.value;
        break;
      case 'email':
        result.format = 'email';
        break;
      case 'url':
        result.format = 'uri';
        break;
      case 'uuid':
        result.format = 'uuid';
        break;
      case 'datetime':
        result.format = 'date-time';
        break;
      case 'date':
        result.format = 'date';
        break;
      case 'regex':
        result.pattern = check.regex.source;
        break;
      default:
        break;
    }
  }
  return result;
}

function numberSchema(schema: z.ZodNumber): OpenApiSchema {
  const result: OpenApiSchema = { type: 'number' };
  for (const check of schema._def.checks) {
    switch (check.kind) {
      case 'int':
        result.type = 'integer';
        break;
      case 'min':
        result.minimum = check.value;
        if (!check.inclusive) result.exclusiveMinimum = true;
        break;
      case 'max':
        result.maximum = check.value;
        if (!check.inclusive) result.exclusiveMaximum = true;
        break;
      case 'multipleOf':
        result.multipleOf = check.value;
        break;
      default:
        break;
    }
  }
  // An integer's exclusive bound is the next integer: `positive()` reads as `minimum: 1`.
  if (result.type === 'integer') {
    if (result.exclusiveMinimum && result.minimum !== undefined) {
      result.minimum = Math.floor(result.minimum) + 1;
      delete result.exclusiveMinimum;
    }
    if (result.exclusiveMaximum && result.maximum !== undefined) {
      result.maximum = Math.ceil(result.maximum) - 1;
      delete result.exclusiveMaximum;
    }
  }
  return result;
}

function nativeEnumValues(enumObject: z.EnumLike): (string | number)[] {
  // A numeric TypeScript enum maps names to numbers and numbers back to names: keep the values.
  return Object.keys(enumObject)
    .filter((key) => typeof enumObject[enumObject[key] as string] !== 'number')
    .map((key) => enumObject[key] as string | number);
}

function typeOfValue(value: unknown): 'string' | 'number' | 'integer' | 'boolean' | 'object' {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  return 'object';
}

function isJsonValue(value: unknown): boolean {
  try {
    return JSON.stringify(value) !== undefined;
  } catch {
    return false;
  }
}
