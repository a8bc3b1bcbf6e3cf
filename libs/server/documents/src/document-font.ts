import { healthCheck, type HealthCheck } from '@voltdepot/server-core';
import { existsSync, readFileSync } from 'node:fs';

export const DEFAULT_DOCUMENT_FONT_PATH = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
/** The face of the collection: Simplified Chinese first (its Latin glyphs are fine for English too). */
export const DEFAULT_DOCUMENT_FONT_NAME = 'NotoSansCJKsc-Regular';
export const DOCUMENT_FONT_INSTALL_HINT = 'apt-get install fonts-noto-cjk';

/** A font file and, for a collection (.ttc), the PostScript name of the face to use. */
export type DocumentFontFile = { path: string; postscriptName?: string };

export type DocumentFonts = {
  regular: DocumentFontFile & { data: Buffer };
  /** Absent when no bold face is found: headings are then drawn in the regular face. */
  bold?: DocumentFontFile & { data: Buffer };
};

export class DocumentFontMissingError extends Error {
  constructor(readonly path: string) {
    super(
      `The CJK font for server-rendered documents (bills, reports) is missing: ${path}. ` +
        `Install it with \`${DOCUMENT_FONT_INSTALL_HINT}\` (scripts/ensure-fonts.sh does), ` +
        'or set DOCUMENT_FONT_PATH to a CJK .ttf/.otf/.ttc font (DOCUMENT_FONT_NAME: its face in a .ttc).',
    );
    this.name = 'DocumentFontMissingError';
  }
}

/**
 * Which font files documents use: `DOCUMENT_FONT_PATH` (default Noto Sans CJK from Debian's
 * fonts-noto-cjk) with `DOCUMENT_FONT_NAME` for a collection's face; the bold face beside it
 * (`...-Bold.ttc`, `NotoSansCJKsc-Bold`) or `DOCUMENT_FONT_BOLD_PATH` / `DOCUMENT_FONT_BOLD_NAME`.
 */
export function documentFontFiles(env: NodeJS.ProcessEnv = process.env): {
  regular: DocumentFontFile;
  bold?: DocumentFontFile;
} {
  const path = env['DOCUMENT_FONT_PATH']?.trim() || DEFAULT_DOCUMENT_FONT_PATH;
  const collection = /\.ttc$/i.test(path);
  const postscriptName =
    env['DOCUMENT_FONT_NAME']?.trim() ||
    (path === DEFAULT_DOCUMENT_FONT_PATH ? DEFAULT_DOCUMENT_FONT_NAME : undefined);
  const regular: DocumentFontFile = collection && postscriptName ? { path, postscriptName } : { path };
  const boldPath =
    env['DOCUMENT_FONT_BOLD_PATH']?.trim() ||
    (/Regular/.test(path) ? path.replace(/Regular/g, 'Bold') : undefined);
  if (!boldPath) return { regular };
  const boldName =
    env['DOCUMENT_FONT_BOLD_NAME']?.trim() ||
    regular.postscriptName?.replace(/Regular$/, 'Bold') ||
    undefined;
  const bold: DocumentFontFile =
    /\.ttc$/i.test(boldPath) && boldName ? { path: boldPath, postscriptName: boldName } : { path: boldPath };
  return { regular, bold };
}

const cache = new Map<string, DocumentFonts>();

/**
 * The font files read once per process (a .ttc is ~20 MB: never per document). Throws
 * `DocumentFontMissingError` naming the file and the fix when the regular face is missing.
 */
export function loadDocumentFonts(env: NodeJS.ProcessEnv = process.env): DocumentFonts {
  const files = documentFontFiles(env);
  const key = `${files.regular.path}|${files.regular.postscriptName ?? ''}|${files.bold?.path ?? ''}`;
  const cached = cache.get(key);
  if (cached) return cached;
  if (!existsSync(files.regular.path)) throw new DocumentFontMissingError(files.regular.path);
  const fonts: DocumentFonts = { regular: { ...files.regular, data: readFileSync(files.regular.path) } };
  if (files.bold && existsSync(files.bold.path)) {
    fonts.bold = { ...files.bold, data: readFileSync(files.bold.path) };
  }
  cache.set(key, fonts);
  return fonts;
}

/** For /health: resolves when the document font is there, rejects with the message that says how to fix it. */
export async function checkDocumentFont(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const { regular } = documentFontFiles(env);
  if (!existsSync(regular.path)) throw new DocumentFontMissingError(regular.path);
}

/**
 * The api's /health entry for the document font: not critical (the api serves everything else without
 * it, so it reports "degraded"), with the message naming the file and the fix.
 */
export function documentFontHealthCheck(env: NodeJS.ProcessEnv = process.env): HealthCheck {
  return healthCheck('document-font', () => checkDocumentFont(env), { critical: false });
}
