import sanitizeHtml from 'sanitize-html';

/** Rich-text template content: what the editor may produce, nothing that runs. */
export function sanitizeTemplateContent(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'h1', 'h2', 'u', 's', 'del'],
    allowedAttributes: {
      a: ['href', 'name', 'target', 'rel'],
      img: ['src', 'alt', 'title', 'width', 'height'],
      '*': ['style'],
    },
    allowedStyles: {
      '*': {
        color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i],
        'background-color': [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i],
        'text-align': [/^(left|right|center|justify)$/],
        'font-size': [/^\d+(?:px|em|rem|%)$/],
      },
    },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesByTag: { img: ['http', 'https', 'data'] },
    allowProtocolRelative: false,
  });
}

const VARIABLE = /\$\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}/g;

/** The `${XXX}` variables a template uses, in order of first use. */
export function templateVariables(content: string): string[] {
  return [...new Set([...content.matchAll(VARIABLE)].map((m) => m[1]))];
}

export class MissingTemplateVariablesError extends Error {
  constructor(readonly missing: string[]) {
    super(`Template variable(s) missing: ${missing.map((v) => '${' + v + '}').join(', ')}`);
    this.name = 'MissingTemplateVariablesError';
  }
}

/**
 * Substitutes every `${XXX}` with `values[XXX]` (escaped for HTML when `html`). A variable without a
 * value is an error naming all the missing ones, never an empty gap in a message.
 */
export function renderTemplate(
  content: string,
  values: Record<string, unknown>,
  options: { html?: boolean } = {},
): string {
  const missing = templateVariables(content).filter(
    (name) => values[name] === undefined || values[name] === null,
  );
  if (missing.length > 0) throw new MissingTemplateVariablesError(missing);
  return content.replace(VARIABLE, (_m, name: string) => {
    const text = String(values[name]);
    return options.html ? escapeHtml(text) : text;
  });
}

/** Plain text of rich-text content (for SMS, robots and titles). */
export function htmlToText(html: string): string {
  return sanitizeHtml(html.replace(/<\/(p|div|h\d|li)>|<br\s*\/?>/gi, '\n'), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}
