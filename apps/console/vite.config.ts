import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { loadEnv, type ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';

const projectRoot = dirname(fileURLToPath(import.meta.url));
const workspaceRoot = resolve(projectRoot, '../..');

const DEFAULT_API_PROXY = 'http://127.0.0.1:3000';
const DEFAULT_MS_PROXY = 'http://127.0.0.1:3200';

/**
 * The @voltdepot/* aliases are read from tsconfig.base.json so the list lives in one place.
 * Only browser-safe libraries are mapped: a server library imported by mistake fails the build.
 */
function browserSafeAliases(): Record<string, string> {
  const base = JSON.parse(readFileSync(resolve(workspaceRoot, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return Object.fromEntries(
    Object.entries(base.compilerOptions.paths)
      .filter(([, [target]]) => /^libs\/(shared|console)\//.test(target))
      .map(([alias, [target]]) => [alias, resolve(workspaceRoot, target)]),
  );
}

/** `/api` but not `/apiDocs`: a prefix followed by a slash, a query or the end. */
const prefixes = (...names: string[]) => `^/(?:${names.join('|')})(?:[/?]|$)`;

function devProxy(env: Record<string, string>): Record<string, ProxyOptions> {
  const api = env.VITE_API_PROXY || DEFAULT_API_PROXY;
  const ms = env.VITE_MS_PROXY || DEFAULT_MS_PROXY;
  return {
    [prefixes('api', 'auth', 'public', 'authority', 'user', 'favorite')]: { target: api, changeOrigin: true },
    // The message centre also serves the STOMP push at /ms/ws.
    [prefixes('ms')]: { target: ms, changeOrigin: true, ws: true },
  };
}

const vendorChunks: [string, RegExp][] = [
  ['react', /[\\/]node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler)[\\/]/],
  ['antd', /[\\/]node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+|dayjs)[\\/]/],
  ['vendor', /[\\/]node_modules[\\/]/],
];

export default defineConfig(({ mode }) => {
  // VITE_* from apps/console/.env* files and from the process environment.
  const env = loadEnv(mode, projectRoot, 'VITE_');
  const proxy = devProxy(env);
  return {
    root: projectRoot,
    envDir: projectRoot,
    // One cache for the workspace instead of an apps/console/node_modules folder.
    cacheDir: resolve(workspaceRoot, 'node_modules/.vite/console'),
    plugins: [react()],
    resolve: { alias: browserSafeAliases() },
    server: { port: 4200, strictPort: true, proxy },
    preview: { port: 4300, strictPort: true, proxy },
    build: {
      outDir: resolve(workspaceRoot, 'dist/apps/console'),
      emptyOutDir: true,
      sourcemap: true,
      // antd alone is close to 1 MB minified; it is split out and cached separately.
      chunkSizeWarningLimit: 1200,
      rollupOptions: {
        // Two pages: the console and the big screen (/screen/index.html, opened in a new tab).
        input: {
          main: resolve(projectRoot, 'index.html'),
          screen: resolve(projectRoot, 'screen/index.html'),
        },
        output: {
          manualChunks: (id: string) => vendorChunks.find(([, pattern]) => pattern.test(id))?.[0],
        },
      },
    },
    test: {
      root: projectRoot,
      // The console's own specs and those of the libs/console/* libraries (named *.spec.tsx there,
      // so the workspace jest, which runs *.spec.ts, leaves them alone).
      include: ['src/**/*.spec.{ts,tsx}', '../../libs/console/*/src/**/*.spec.tsx'],
      environment: 'jsdom',
      globals: true,
      setupFiles: ['src/test/setup.ts'],
      css: false,
      restoreMocks: true,
      // Whole-console renders in jsdom load antd chunks on first use, which takes seconds.
      testTimeout: 30_000,
      unstubGlobals: true,
    },
  };
});
