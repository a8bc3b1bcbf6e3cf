import type { ErrorBody } from '@voltdepot/shared-contracts';
import { DETAILED_ERROR_CODES, type ServerErrorMessages } from './locales';

/** A non-2xx answer the request layer rejected with; `body` is the server's error body when it sent one. */
export class RequestError extends Error {
  override readonly name = 'RequestError';

  constructor(
    readonly status: number,
    readonly body: Partial<ErrorBody> | undefined,
    message = body?.message || `HTTP ${status}`,
  ) {
    super(message);
  }
}

/**
 * The fields of an error body `{ code, message, details?, correlationId }` that are really there.
 * An empty or blank message counts as none. Anything that is not an object gives undefined.
 */
export function toErrorBody(value: unknown): Partial<ErrorBody> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const body: Partial<ErrorBody> = {};
  if (typeof record.code === 'string') body.code = record.code;
  if (typeof record.message === 'string' && record.message.trim() !== '') body.message = record.message;
  if (typeof record.correlationId === 'string') body.correlationId = record.correlationId;
  if ('details' in record) body.details = record.details;
  return body;
}

/**
 * The text to show for an error answer in the user's language: the translation of its `code` when the
 * console knows the code (with the failing fields of a validation error, or the server's specifics for
 * a code in DETAILED_ERROR_CODES), otherwise undefined (the caller shows the server's message).
 */
export function localizeServerError(
  body: Partial<ErrorBody> | undefined,
  messages: ServerErrorMessages,
): string | undefined {
  const code = body?.code;
  // A refusal of the IC-card area names its message: shown in the user's language.
  const areaCode = (body?.details as { messageCode?: unknown } | undefined)?.messageCode;
  if (typeof areaCode === 'string' && Object.hasOwn(messages.icCardMessage, areaCode)) {
    return messages.icCardMessage[areaCode as keyof ServerErrorMessages['icCardMessage']];
  }
  if (code === undefined || !Object.hasOwn(messages.codes, code)) return undefined;
  const text = messages.codes[code as keyof ServerErrorMessages['codes']];
  const detail = body?.message ?? '';
  if (code === 'VALIDATION_FAILED') {
    const fields = fieldNames(body?.details);
    if (fields.length === 0) return text;
    return fill(messages.validationFields, { fields: fields.join(', ') });
  }
  if (DETAILED_ERROR_CODES.has(code) && detail !== '') {
    return fill(messages.detailed, { message: text, detail });
  }
  return text;
}

function fieldNames(details: unknown): string[] {
  if (!Array.isArray(details)) return [];
  const names = details
    .map((item: unknown) =>
      typeof item === 'object' && item !== null && typeof (item as { field?: unknown }).field === 'string'
        ? (item as { field: string }).field
        : undefined,
    )
    .filter((name): name is string => name !== undefined && name !== '');
  return [...new Set(names)];
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (match, name: string) => values[name] ?? match);
}
