import { z } from 'zod';

/** How large a free-form JSON value may be. */
export type JsonBounds = {
  /** Levels of objects and arrays: `{}` is 1, `{"a":{"b":1}}` is 2; a scalar is 0. */
  maxDepth: number;
  /** Object keys and array items, counted at every level. */
  maxKeys: number;
  /** Its size as JSON text, UTF-8. */
  maxBytes: number;
};

/**
 * Which bound a value exceeds, in the words of a 400 (`must be nested at most 3 levels deep`), or
 * undefined. Depth and keys are counted with a stack of its own and stop at the first excess, so a value
 * nested thousands deep is measured without recursion; only a value within them is serialised to be
 * weighed.
 */
export function jsonBoundsProblem(value: unknown, bounds: JsonBounds): string | undefined {
  let keys = 0;
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > bounds.maxDepth)
      return `must be nested at most ${bounds.maxDepth} level${bounds.maxDepth === 1 ? '' : 's'} deep`;
    const children = Array.isArray(current) ? current : Object.values(current);
    keys += children.length;
    if (keys > bounds.maxKeys) return `must have at most ${bounds.maxKeys} keys and items`;
    for (const child of children) pending.push([child, depth + 1]);
  }
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  if (bytes > bounds.maxBytes) return `must be at most ${bounds.maxBytes} bytes as JSON`;
  return undefined;
}

/**
 * A free-form JSON field with limits: `schema` (any value by default) that is also refused, with a 400
 * naming the bound, when it is nested deeper, has more keys or weighs more than `bounds` allow. Every
 * JSON field whose shape the server does not know takes one, so that nothing a client sends is stored
 * without limit or fails in the database driver.
 *
 * ```ts
 * settings: boundedJson({ maxDepth: 1, maxKeys: 20, maxBytes: 16_384 }, z.record(z.unknown()))
 * ```
 */
export function boundedJson<S extends z.ZodTypeAny = z.ZodUnknown>(
  bounds: JsonBounds,
  schema?: S,
): z.ZodEffects<S> {
  return ((schema ?? z.unknown()) as S).superRefine((value, ctx) => {
    const problem = jsonBoundsProblem(value, bounds);
    if (problem !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });
}

/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth`, read without parsing (strings
 * skipped): the body parser refuses such a body before anything recurses over it (serialising a value
 * nested 5,000 deep overflows the stack).
 */
export function jsonTextTooDeep(text: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const byte = text[i];
    if (inString) {
      if (byte === 0x5c /* \ */) i++;
      else if (byte === 0x22 /* " */) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x7b /* { */ || byte === 0x5b /* [ */) {
      if (++depth > maxDepth) return true;
    } else if (byte === 0x7d /* } */ || byte === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}
