import { SetMetadata } from '@nestjs/common';
import type { z } from 'zod';

/** Metadata key of a handler's `ApiDoc`. */
export const API_DOC_KEY = 'voltdepot:apiDoc';

/** Content types of the files routes send. */
export const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  png: 'image/png',
  prometheusText: 'text/plain',
} as const;

/** Error answers a route documents besides 400, 401 and 403 (those follow from its pipes and guard). */
export type ApiDocError = 404 | 409 | 413 | 422 | 429 | 502 | 503 | 504;

type ApiDocCommon = {
  /** One line for the document (the handler's comment says the rest in the code). */
  summary?: string;
  errors?: readonly ApiDocError[];
  /**
   * The request body, for routes whose body no `ZodBody` pipe validates (it documents itself): a zod
   * schema, or `'file'` for a multipart/form-data upload of one `file`.
   */
  body?: z.ZodTypeAny | 'file';
};

/** What a route answers with when it succeeds. */
export type ApiDocSpec = ApiDocCommon & {
  /** The JSON answer. */
  response?: z.ZodTypeAny;
  /** The answer is a file (or text) of one of these content types, not JSON. */
  produces?: readonly string[];
};

/** A method decorator accepting only handlers that return (a promise of) `T`. */
export type ReturningDecorator<T> = <M extends (...args: never[]) => T | Promise<T>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;

/**
 * Documents a route in OpenAPI: its success answer (a zod schema, the project's DTO language), the files
 * it sends or nothing (204), a summary and the error answers beyond 400/401/403. The status, the 400 (a
 * zod pipe validates the request), 401 and 403 (its guard rule), the path parameters (`ZodParams`), the
 * query (`ZodQuery`) and the body (`ZodBody`) come from the route itself when the document is built
 * (`createOpenApiDocument`).
 *
 * TypeScript refuses a handler whose return type the schema does not describe; tests check the real
 * answers against the schema (`DocumentedResponseCheck`).
 *
 * ```ts
 * @ApiDoc({ response: userViewSchema, errors: [404] })
 * @Get(':id')
 * get(@ZodParams(idParamsSchema) p: IdParams): Promise<UserView> { ... }
 *
 * @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })   // a file, sent with @Res()
 * @ApiDoc({ summary: 'Delete a user' })           // no answer: the route is @HttpCode(204)
 * ```
 */
export function ApiDoc<S extends z.ZodTypeAny>(
  spec: ApiDocCommon & { response: S },
): ReturningDecorator<z.output<S>>;
export function ApiDoc(spec: ApiDocCommon & { produces: readonly string[] }): ReturningDecorator<void>;
export function ApiDoc(spec?: ApiDocCommon): ReturningDecorator<void>;
export function ApiDoc(spec: ApiDocSpec = {}): MethodDecorator {
  return SetMetadata(API_DOC_KEY, spec);
}

/** The `ApiDoc` of a handler, if it has one. */
export function apiDocOf(handler: object): ApiDocSpec | undefined {
  return Reflect.getMetadata(API_DOC_KEY, handler) as ApiDocSpec | undefined;
}
