/**
 * Generates the console's API clients from the services' OpenAPI documents: per service, one entry per
 * operation (method, path exactly as served, path and query parameter names) with a function filling a
 * path in, TypeScript types of every schema the document names (components), and per operation the
 * types of its query, body and success answer (`<P>Query<K>`, `<P>Body<K>`, `<P>Response<K>`).
 *
 * - `--service api` (default): src/generated.ts from the api's /api/docs-json (`apiOperations`, `apiPath`, `Api*`).
 * - `--service msg-center`: src/msg-center.generated.ts from msg-center's /ms/docs-json (`msgOperations`, `msgPath`, `Msg*`).
 * - `--service ocpp-gateway`: src/ocpp-gateway.generated.ts from the gateway's /docs-json
 *   (`gatewayOperations`, `gatewayPath`, `Gateway*`).
 *
 *   node -r @swc-node/register libs/console/api-client/tools/generate.ts --from <url|file>
 *     [--service api|msg-center|ocpp-gateway] [--check]
 *
 * Every operation's answer must be typed: a document with an operation whose success answer is
 * undocumented (or JSON described as "any value") is refused, unless the operation sends a file (a
 * non-JSON content type with a binary schema: xlsx exports, pictures), typed `Blob`. Each service's
 * integration test runs `--check` against its live document and fails when the committed file differs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const GENERATED_FILE = resolve(__dirname, '../src/generated.ts');
export const MSG_GENERATED_FILE = resolve(__dirname, '../src/msg-center.generated.ts');
export const GATEWAY_GENERATED_FILE = resolve(__dirname, '../src/ocpp-gateway.generated.ts');

/** An OpenAPI 3.0 schema object (what the services' documents use of it). */
export type SchemaObject = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  description?: string;
  items?: SchemaObject;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
};
type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  schema?: SchemaObject;
  description?: string;
};
type MediaTypes = Record<string, { schema?: SchemaObject }>;
type Operation = {
  operationId?: string;
  tags?: string[];
  parameters?: Parameter[];
  summary?: string;
  requestBody?: { required?: boolean; content?: MediaTypes };
  responses?: Record<string, { description?: string; content?: MediaTypes }>;
};
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, SchemaObject> };
};

/** What differs between the generated clients. */
export type ClientTarget = {
  file: string;
  /** Where the document comes from, for the header. */
  source: string;
  operationsConst: string;
  typePrefix: string;
  pathFunction: string;
};

export const TARGETS = {
  api: {
    file: GENERATED_FILE,
    source: "the api's /api/docs-json",
    operationsConst: 'apiOperations',
    typePrefix: 'Api',
    pathFunction: 'apiPath',
  },
  'msg-center': {
    file: MSG_GENERATED_FILE,
    source: "msg-center's /ms/docs-json",
    operationsConst: 'msgOperations',
    typePrefix: 'Msg',
    pathFunction: 'msgPath',
  },
  'ocpp-gateway': {
    file: GATEWAY_GENERATED_FILE,
    source: "the ocpp-gateway's /docs-json",
    operationsConst: 'gatewayOperations',
    typePrefix: 'Gateway',
    pathFunction: 'gatewayPath',
  },
} satisfies Record<string, ClientTarget>;
export type ServiceName = keyof typeof TARGETS;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function operationName(method: string, path: string, operation: Operation): string {
  const raw =
    operation.operationId ??
    `${method}_${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_+$/, '');
  return raw.replace(/[^A-Za-z0-9_$]/g, '_');
}

/** The formatted TypeScript source for a document (formatted like the rest of the repository). */
export async function renderClient(
  document: OpenApiDocument,
  target: ClientTarget = TARGETS.api,
): Promise<string> {
  const untyped = untypedOperations(document);
  if (untyped.length > 0) {
    throw new Error(
      `every operation but a file download must document its answer (ApiDoc); untyped:\n${untyped.join('\n')}`,
    );
  }
  const prettier = await import('prettier');
  const options = await prettier.resolveConfig(target.file);
  return prettier.format(renderSource(document, target), { ...options, filepath: target.file });
}

type Entry = { id: string; path: string; method: string; operation: Operation };

function entriesOf(document: OpenApiDocument): Entry[] {
  const entries: Entry[] = [];
  for (const path of Object.keys(document.paths).sort()) {
    const item = document.paths[path];
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      entries.push({ id: operationName(method, path, operation), path, method, operation });
    }
  }
  return entries;
}

/** The TypeScript source; stable order (by path, then method) so diffs stay small. */
function renderSource(document: OpenApiDocument, target: ClientTarget): string {
  const entries = entriesOf(document);
  const { operationsConst: ops, typePrefix: p, pathFunction } = target;
  const lines = entries.map(({ id, path, method, operation }) => {
    const parameters = operation.parameters ?? [];
    // Path parameters come from the template itself: routes validated with zod do not declare them.
    const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    const declared = (where: string) => parameters.filter((x) => x.in === where).map((x) => x.name);
    const list = (items: string[]) => `[${[...new Set(items)].map((name) => `'${name}'`).join(', ')}]`;
    const names = (where: string) =>
      list(where === 'path' ? [...inTemplate, ...declared('path')] : declared(where));
    return (
      `  ${id}: {\n` +
      `    method: '${method.toUpperCase()}',\n` +
      `    path: '${path}',\n` +
      `    tag: '${(operation.tags?.[0] ?? '').replace(/'/g, "\\'")}',\n` +
      `    pathParams: ${names('path')},\n` +
      `    queryParams: ${names('query')},\n` +
      `  },`
    );
  });
  const types = renderTypes(document, entries, p);
  return `// Generated by libs/console/api-client/tools/generate.ts from ${target.source}. Do not edit.
${types}
export const ${ops} = {
${lines.join('\n')}
} as const;

export type ${p}Operations = typeof ${ops};
export type ${p}OperationId = keyof ${p}Operations;
export type ${p}PathParams<K extends ${p}OperationId> = {
  [P in ${p}Operations[K]['pathParams'][number]]: string | number;
};

/** The path of an operation with its path parameters filled in (percent-encoded). */
export function ${pathFunction}<K extends ${p}OperationId>(id: K, params?: ${p}PathParams<K>): string {
  const values = (params ?? {}) as Record<string, string | number>;
  return ${ops}[id].path.replace(/\\{([^}]+)\\}/g, (_match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(\`\${String(id)}: path parameter \${name} is missing\`);
    return encodeURIComponent(String(value));
  });
}
`;
}

/** Component and per-operation types. */
function renderTypes(document: OpenApiDocument, entries: Entry[], p: string): string {
  const out: string[] = [''];
  const components = document.components?.schemas ?? {};
  for (const name of Object.keys(components).sort()) {
    const schema = components[name];
    out.push(`${doc(schema.description, '')}export type ${typeName(name)} = ${tsType(schema, '')};`, '');
  }
  const rows = entries.map(({ id, operation }) => {
    const query = (operation.parameters ?? []).filter((x) => x.in === 'query');
    const queryType =
      query.length === 0
        ? 'undefined'
        : `{ ${query
            .map(
              (x) =>
                `${doc(x.description ?? x.schema?.description, '    ')}${propertyName(x.name)}${x.required ? '' : '?'}: ${tsType(x.schema ?? {}, '    ')}`,
            )
            .join('; ')} }`;
    const body = jsonSchemaOf(operation.requestBody?.content);
    const bodyType = operation.requestBody === undefined ? 'undefined' : tsType(body ?? {}, '    ');
    const responseType = answerOf(operation).type;
    return `  ${id}: {\n    query: ${queryType};\n    body: ${bodyType};\n    response: ${responseType};\n  };`;
  });
  out.push(
    '/** Per operation: its query parameters, request body and success answer. */',
    `export type ${p}OperationTypes = {`,
    ...rows,
    '};',
    `export type ${p}Query<K extends keyof ${p}OperationTypes> = ${p}OperationTypes[K]['query'];`,
    `export type ${p}Body<K extends keyof ${p}OperationTypes> = ${p}OperationTypes[K]['body'];`,
    `export type ${p}Response<K extends keyof ${p}OperationTypes> = ${p}OperationTypes[K]['response'];`,
  );
  return out.join('\n');
}

/** How an operation answers when it succeeds, and the TypeScript type of that answer. */
type Answer = { kind: 'json' | 'file' | 'text' | 'none' | 'untyped'; type: string };

const JSON_TYPE = /^application\/([\w.+-]+\+)?json$/;

/**
 * The success answer of an operation: JSON (typed by its schema), a file (`Blob`: any content type but
 * JSON with a binary schema, e.g. xlsx exports and pictures), text (`string`), nothing (a 204), or
 * untyped (no success answer documented, or JSON whose schema says nothing).
 */
export function answerOf(operation: Operation): Answer {
  const codes = Object.keys(operation.responses ?? {})
    .filter((code) => /^2\d\d$/.test(code))
    .sort();
  if (codes.length === 0) return { kind: 'untyped', type: 'unknown' };
  const content = operation.responses?.[codes[0]]?.content;
  const types = Object.keys(content ?? {});
  if (types.length === 0)
    return codes[0] === '204' ? { kind: 'none', type: 'void' } : { kind: 'untyped', type: 'unknown' };
  const json = types.find((type) => JSON_TYPE.test(type));
  if (json === undefined) {
    const binary = types.some((type) => content?.[type]?.schema?.format === 'binary');
    return binary ? { kind: 'file', type: 'Blob' } : { kind: 'text', type: 'string' };
  }
  const schema = content?.[json]?.schema;
  const type = schema === undefined ? 'unknown' : tsType(schema, '    ');
  return { kind: type === 'unknown' || type === 'Record<string, unknown>' ? 'untyped' : 'json', type };
}

/** The operations (by id) whose success answer is untyped; file downloads are typed (`Blob`). */
export function untypedOperations(document: OpenApiDocument): string[] {
  return entriesOf(document)
    .filter(({ operation }) => answerOf(operation).kind === 'untyped')
    .map(({ id, method, path }) => `${id} (${method.toUpperCase()} ${path})`);
}

function jsonSchemaOf(content: MediaTypes | undefined): SchemaObject | undefined {
  if (content === undefined) return undefined;
  return (content['application/json'] ?? Object.values(content)[0])?.schema;
}

/** A component name as a TypeScript identifier. */
function typeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_$]/g, '_');
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : `'${name.replace(/'/g, "\\'")}'`;
}

function doc(text: string | undefined, indent: string): string {
  if (!text) return '';
  return `/** ${text.replace(/\*\//g, '* /').replace(/\s*\n\s*/g, ' ')} */\n${indent}`;
}

function literal(value: unknown): string {
  return typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : String(value);
}

/** The TypeScript type of a schema (OpenAPI 3.0: `nullable`, `$ref` to components). */
export function tsType(schema: SchemaObject, indent: string): string {
  const base = tsBaseType(schema, indent);
  return schema.nullable && base !== 'null' ? `${base} | null` : base;
}

function tsBaseType(schema: SchemaObject, indent: string): string {
  if (schema.$ref !== undefined) return typeName(schema.$ref.split('/').pop() ?? 'unknown');
  if (schema.enum !== undefined && schema.enum.length > 0) {
    return schema.enum.map((value) => (value === null ? 'null' : literal(value))).join(' | ');
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (union !== undefined) return union.map((s) => wrap(tsType(s, indent))).join(' | ');
  if (schema.allOf !== undefined) return schema.allOf.map((s) => wrap(tsType(s, indent))).join(' & ');
  switch (schema.type) {
    case 'string':
      return schema.format === 'binary' ? 'Blob' : 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `${wrap(tsType(schema.items ?? {}, indent))}[]`;
    case 'object':
    case undefined: {
      if (
        schema.type === undefined &&
        schema.properties === undefined &&
        schema.additionalProperties === undefined
      ) {
        return 'unknown';
      }
      const inner = `${indent}  `;
      const required = new Set(schema.required ?? []);
      const fields = Object.entries(schema.properties ?? {}).map(
        ([name, value]) =>
          `${inner}${doc(value.description, inner)}${propertyName(name)}${required.has(name) ? '' : '?'}: ${tsType(value, inner)};`,
      );
      const extra = schema.additionalProperties;
      const record =
        extra === false
          ? undefined
          : extra === undefined || extra === true
            ? fields.length === 0
              ? 'Record<string, unknown>'
              : undefined
            : `Record<string, ${tsType(extra, indent)}>`;
      if (fields.length === 0) return record ?? 'Record<string, never>';
      const object = `{\n${fields.join('\n')}\n${indent}}`;
      return record === undefined ? object : `${object} & ${record}`;
    }
    default:
      return 'unknown';
  }
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !/^\{[\s\S]*\}$/.test(type) ? `(${type})` : type;
}

async function readDocument(from: string): Promise<OpenApiDocument> {
  if (/^https?:\/\//.test(from)) {
    const response = await fetch(from);
    if (!response.ok) throw new Error(`${from} answered ${response.status}`);
    return (await response.json()) as OpenApiDocument;
  }
  return JSON.parse(readFileSync(from, 'utf8')) as OpenApiDocument;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const from = args[args.indexOf('--from') + 1];
  if (!args.includes('--from') || !from) {
    throw new Error('usage: generate.ts --from <url|file> [--service api|msg-center|ocpp-gateway] [--check]');
  }
  const service = (args.includes('--service') ? args[args.indexOf('--service') + 1] : 'api') as ServiceName;
  const target: ClientTarget | undefined = TARGETS[service];
  if (target === undefined)
    throw new Error(`unknown --service '${service}' (${Object.keys(TARGETS).join(', ')})`);
  const source = await renderClient(await readDocument(from), target);
  if (args.includes('--check')) {
    const current = readFileSync(target.file, 'utf8');
    if (current !== source) throw new Error(`${target.file} is out of date; run without --check`);
    console.log(`${service} client is up to date`);
    return;
  }
  writeFileSync(target.file, source);
  console.log(`wrote ${target.file}`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
