/** A file answer (spec §7): the data and the decoded file name from content-disposition, when it had one. */
export type FileResult = { data: Blob; fileName: string | undefined };

/**
 * The file name of a content-disposition header, decoded.
 * `filename*=UTF-8''...` (RFC 6266) wins over `filename=`; a percent-encoded plain filename is decoded too.
 */
export function parseContentDisposition(header: string | null | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*([^;]+)/i.exec(header);
  if (extended) {
    const value = unquote(extended[1].trim());
    const match = /^([\w!#$%&+^`{}~-]+)'[^']*'(.*)$/.exec(value);
    const name = decode(match ? match[2] : value);
    if (name) return name;
  }
  const plain = /(?:^|;)\s*filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(header);
  if (!plain) return undefined;
  const name = decode(unquote(plain[1].trim()));
  return name || undefined;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value; // not percent-encoded after all (e.g. a literal '%')
  }
}

/** Excel exports are always saved with the .xlsx extension (spec §7). */
export function xlsxFileName(name: string): string {
  const trimmed = name.trim() || 'export';
  return /\.xlsx$/i.test(trimmed) ? trimmed : `${trimmed}.xlsx`;
}

/** Hands a blob to the browser as a download. */
export function saveBlobInBrowser(data: Blob, fileName: string): void {
  const url = URL.createObjectURL(data);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked on the next tick: some browsers start the download asynchronously.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
