/** Spec §5/§9: images in the rich-text editor up to 10 MB (10485760 bytes). */
export const MAX_IMAGE_BYTES = 10_485_760;

/** Image types the editor embeds (the server's sanitiser keeps data: images in <img>). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

export type ImageProblem = 'tooLarge' | 'notImage';

/** Why an image file cannot go into the editor, or null when it can. */
export function checkImage(file: Pick<File, 'size' | 'type'>): ImageProblem | null {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return 'notImage';
  if (file.size > MAX_IMAGE_BYTES) return 'tooLarge';
  return null;
}

const VARIABLE = /\$\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}/g;

/** The `${XXX}` variables written in a template, in order of first use. */
export function templateVariables(content: string | null | undefined): string[] {
  return [...new Set([...(content ?? '').matchAll(VARIABLE)].map((match) => match[1]))];
}

/**
 * Variables the message centre fills in from its events (transaction stopped, pile error); shown as
 * hints that insert `${name}` into the content.
 */
export const KNOWN_VARIABLES = [
  'pile',
  'gun',
  'reason',
  'energyKwh',
  'transactionId',
  'errorCode',
  'info',
  'time',
] as const;
