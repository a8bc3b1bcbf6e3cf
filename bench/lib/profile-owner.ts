/** Shared by the profile summaries (cpuprofile-summary.ts, heapprofile-summary.ts). */

/** The package or source folder a script belongs to, or a V8 category such as (garbage collector). */
export function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) return url;
  const app = /\/(apps|libs|bench)\/([^/]+)\/(?:src\/)?([^/]+)?/.exec(url);
  if (app) return `${app[1]}/${app[2]}${app[3] && !app[3].includes('.') ? `/${app[3]}` : ''}`;
  return url;
}
