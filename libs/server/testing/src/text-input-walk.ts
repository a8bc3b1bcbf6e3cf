import type { INestApplication } from '@nestjs/common';
import { createOpenApiDocument, NUL_CHARACTER_MESSAGE } from '@voltdepot/server-core';
import request from 'supertest';

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};
type Parameter = { name: string; in: string; schema?: Schema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};

/** One string input of one route, and the request that puts `value` into it (and only there). */
export type TextInputProbe = {
  /** `POST /auth/login body.username`, `GET /api/station/page/:page/size/:size query.name`. */
  name: string;
  /** The field a 400 must name. */
  field: string;
  method: 'get' | 'post' | 'put' | 'delete' | 'patch';
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
};

/**
 * Every string input of every route of the app's OpenAPI document (string path and query parameters,
 * the string fields of a JSON body), each as a request carrying `value` in that input alone. Path
 * parameters not probed take their value from `params` (`{ ':id': '1' }`, as `routeRequest` does).
 */
export function textInputProbes(
  app: INestApplication,
  params: Record<string, string>,
  value: string,
): TextInputProbe[] {
  const document = createOpenApiDocument(app, { title: 'text input walk', description: '' });
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref === undefined ? schema : resolve(components[schema.$ref.split('/').pop()!]);
  const probes: TextInputProbe[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const route = `${method.toUpperCase()} ${template.replace(/\{(\w+)\}/g, ':$1')}`;
      const pathWith = (probed?: string) =>
        template.replace(/\{(\w+)\}/g, (_m, name: string) => {
          const text = name === probed ? value : params[`:${name}`];
          if (text === undefined) throw new Error(`no test value for :${name} (route ${route})`);
          return encodeURIComponent(text);
        });
      const base = { method: method as TextInputProbe['method'] };
      for (const parameter of operation.parameters ?? []) {
        if (!isText(resolve(parameter.schema), resolve)) continue;
        if (parameter.in === 'path') {
          probes.push({
            ...base,
            name: `${route} path.${parameter.name}`,
            field: parameter.name,
            path: pathWith(parameter.name),
          });
        } else if (parameter.in === 'query') {
          probes.push({
            ...base,
            name: `${route} query.${parameter.name}`,
            field: parameter.name,
            path: pathWith(),
            query: { [parameter.name]: value },
          });
        }
      }
      const body = resolve(operation.requestBody?.content?.['application/json']?.schema);
      for (const [property, schema] of Object.entries(objectProperties(body, resolve))) {
        if (!isText(resolve(schema), resolve)) continue;
        probes.push({
          ...base,
          name: `${route} body.${property}`,
          field: property,
          path: pathWith(),
          body: { [property]: value },
        });
      }
    }
  }
  return probes;
}

/**
 * Sends every probe (with its `headers`) and returns those not answered with the 400 that names their
 * field alone: `Validation failed: <field>: must not contain a NUL character`.
 */
export async function unansweredNulProbes(
  app: INestApplication,
  probes: readonly TextInputProbe[],
  headers: (probe: TextInputProbe) => Record<string, string>,
): Promise<string[]> {
  const wrong: string[] = [];
  for (const probe of probes) {
    let req = request(app.getHttpServer())[probe.method](probe.path).set(headers(probe));
    if (probe.query !== undefined) req = req.query(probe.query);
    if (probe.body !== undefined) req = req.send(probe.body);
    let res: request.Response;
    try {
      res = await req;
    } catch (error) {
      wrong.push(`${probe.name} -> ${(error as Error).message}`);
      continue;
    }
    const expected = {
      code: 'VALIDATION_FAILED',
      message: `Validation failed: ${probe.field}: ${NUL_CHARACTER_MESSAGE}`,
      details: [{ field: probe.field, message: NUL_CHARACTER_MESSAGE }],
    };
    const body = res.body as Record<string, unknown>;
    const got = { code: body['code'], message: body['message'], details: body['details'] };
    if (res.status !== 400 || JSON.stringify(got) !== JSON.stringify(expected)) {
      wrong.push(`${probe.name} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
  }
  return wrong;
}

function objectProperties(
  schema: Schema | undefined,
  resolve: (s: Schema | undefined) => Schema | undefined,
): Record<string, Schema> {
  if (schema === undefined) return {};
  const parts = [schema, ...(schema.allOf ?? []).map((s) => resolve(s) ?? {})];
  return Object.assign({}, ...parts.map((part) => part.properties ?? {})) as Record<string, Schema>;
}

function isText(schema: Schema | undefined, resolve: (s: Schema | undefined) => Schema | undefined): boolean {
  if (schema === undefined) return false;
  const types = [schema.type ?? []].flat();
  if (types.includes('string')) return true;
  return [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((s) => isText(resolve(s), resolve));
}
