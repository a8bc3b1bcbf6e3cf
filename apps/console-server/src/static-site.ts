import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.geojson': 'application/geo+json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.geojson',
  '.webmanifest',
  '.txt',
  '.svg',
]);
/** Below this a compressed answer saves less than its cost; above it, the file is streamed as it is. */
const COMPRESS_MIN_BYTES = 1024;
const COMPRESS_MAX_BYTES = 16 * 1024 * 1024;

/** Vite writes content-hashed files here: their name changes with their content. */
const HASHED_DIR = 'assets/';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export type Encoding = 'br' | 'gzip';

export type SiteFile = {
  kind: 'file';
  absolutePath: string;
  /** Relative to the build, with forward slashes. */
  path: string;
  size: number;
  mtimeMs: number;
  contentType: string;
  cacheControl: string;
  html: boolean;
  compressible: boolean;
};

/** What a GET of a path finds: a file, a folder asked for without its slash, or nothing. */
export type Lookup = SiteFile | { kind: 'add-slash' } | { kind: 'missing' };

const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  // Quality 5: most of brotli's gain at a fraction of quality 11's time (files are compressed on first use).
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
    }),
  gzip: (data) => promisify(gzip)(data, { level: 6 }),
};

/** The encoding to answer with: brotli before gzip, as the request allows (`q=0` refuses one). */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().toLowerCase().split(';'))
      .filter(([, q]) => q === undefined || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/**
 * The console's build as a site: the files Vite wrote, the client-side routes answered with the console's
 * page, and nothing else (no source maps, no dot files such as .vite/manifest.json).
 */
export class StaticSite {
  private readonly root: string;
  private readonly compressed = new Map<string, { version: string; data: Promise<Buffer> }>();
  private readonly pages = new Map<string, { version: string; text: Promise<string> }>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The root's index.html exists (the server refuses to start without a build). */
  async hasBuild(): Promise<boolean> {
    return (await this.fileAt('index.html')) !== undefined;
  }

  /** `pathname` is the URL's decoded path. */
  async lookup(pathname: string): Promise<Lookup> {
    const segments = pathname.split('/').filter((segment) => segment !== '');
    // Dot files and folders (and so any `..`), NUL, backslashes and source maps are never served.
    if (segments.some((s) => s.startsWith('.') || s.includes('\0') || s.includes('\\')))
      return { kind: 'missing' };
    const relative = segments.join('/');
    if (relative.endsWith('.map')) return { kind: 'missing' };
    const found = relative === '' ? undefined : await this.fileAt(relative);
    if (found !== undefined) return found;
    const index = await this.fileAt(relative === '' ? 'index.html' : `${relative}/index.html`);
    if (index !== undefined) {
      return relative === '' || pathname.endsWith('/') ? index : { kind: 'add-slash' };
    }
    // A client-side route (no file extension) gets the console's page; a missing file stays missing.
    if (extname(segments.at(-1) ?? '') === '')
      return (await this.fileAt('index.html')) ?? { kind: 'missing' };
    return { kind: 'missing' };
  }

  /** An HTML page's text (cached until the file changes). */
  pageText(file: SiteFile): Promise<string> {
    const version = `${file.mtimeMs}:${file.size}`;
    const cached = this.pages.get(file.absolutePath);
    if (cached?.version === version) return cached.text;
    const text = readFile(file.absolutePath, 'utf8');
    this.pages.set(file.absolutePath, { version, text });
    text.catch(() => this.pages.delete(file.absolutePath));
    return text;
  }

  /** The file compressed with `encoding`, made once per file version; undefined when not worth it. */
  compressedBody(file: SiteFile, encoding: Encoding | undefined): Promise<Buffer> | undefined {
    if (encoding === undefined || !file.compressible) return undefined;
    if (file.size < COMPRESS_MIN_BYTES || file.size > COMPRESS_MAX_BYTES) return undefined;
    const key = `${file.absolutePath}\0${encoding}`;
    const version = `${file.mtimeMs}:${file.size}`;
    const cached = this.compressed.get(key);
    if (cached?.version === version) return cached.data;
    const data = readFile(file.absolutePath).then(compressors[encoding]);
    this.compressed.set(key, { version, data });
    data.catch(() => this.compressed.delete(key));
    return data;
  }

  stream(file: SiteFile) {
    return createReadStream(file.absolutePath);
  }

  private async fileAt(relative: string): Promise<SiteFile | undefined> {
    const absolutePath = join(this.root, relative);
    if (!absolutePath.startsWith(this.root + sep)) return undefined;
    const info = await stat(absolutePath).catch(() => undefined);
    if (info === undefined || !info.isFile()) return undefined;
    const extension = extname(relative).toLowerCase();
    const html = extension === '.html';
    return {
      kind: 'file',
      absolutePath,
      path: relative,
      size: info.size,
      mtimeMs: info.mtimeMs,
      contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
      cacheControl: relative.startsWith(HASHED_DIR) && !html ? IMMUTABLE : REVALIDATE,
      html,
      compressible: COMPRESSIBLE.has(extension),
    };
  }
}
