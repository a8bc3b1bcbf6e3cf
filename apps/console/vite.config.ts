import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { loadEnv, type ProxyOptions } from 'vite';
import { defineConfig } from 'vitest/config';
import { boundaryPrecision } from './build/boundaryPrecision';
import { initialLoadBudget } from './build/initialLoadBudget';

const projectRoot = dirname(fileURLToPath(import.meta.url));
const workspaceRoot = resolve(projectRoot, '../..');

/** Replaced by apps/console-server (CSP_NONCE_PLACEHOLDER there). */
const CSP_NONCE_PLACEHOLDER = 'VOLTDEPOT_CSP_NONCE';
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

/** The dev server's proxy: the same paths as PROXIED_PREFIXES of apps/console-server (production). */
function devProxy(env: Record<string, string>): Record<string, ProxyOptions> {
  const api = env.VITE_API_PROXY || DEFAULT_API_PROXY;
  const ms = env.VITE_MS_PROXY || DEFAULT_MS_PROXY;
  // xfwd: the services learn the browser's address from X-Forwarded-For (they trust it from this proxy
  // only, TRUST_PROXY=loopback), so a per-address limit counts each browser, not the proxy.
  return {
    [prefixes('api', 'auth', 'public', 'authority', 'user', 'favorite')]: {
      target: api,
      changeOrigin: true,
      xfwd: true,
    },
    // The message centre also serves the STOMP push at /ms/ws.
    [prefixes('ms')]: { target: ms, changeOrigin: true, ws: true, xfwd: true },
  };
}

export default defineConfig(({ mode }) => {
  // VITE_* from apps/console/.env* files and from the process environment.
  const env = loadEnv(mode, projectRoot, 'VITE_');
  const proxy = devProxy(env);
  return {
    root: projectRoot,
    envDir: projectRoot,
    // One cache for the workspace instead of an apps/console/node_modules folder.
    cacheDir: resolve(workspaceRoot, 'node_modules/.vite/console'),
    // The budget check prints what signing in downloads and fails the build above it.
    plugins: [react(), initialLoadBudget(), boundaryPrecision()],
    resolve: { alias: browserSafeAliases() },
    // Development only: production serves the build with apps/console-server (same proxy table, headers).
    server: { port: 4200, strictPort: true, proxy },
    // The console server puts a fresh nonce here in each page it serves (style-src of its policy).
    html: { cspNonce: CSP_NONCE_PLACEHOLDER },
    build: {
      outDir: resolve(workspaceRoot, 'dist/apps/console'),
      emptyOutDir: true,
      // Maps are written for reading stack traces on the server, but not referenced from the bundles (and
      // the console server never serves *.map).
      sourcemap: 'hidden',
      // Read by the bundle budget (and by anything that needs to know which file a page loads).
      manifest: true,
      // echarts alone is about 1 MB minified, loaded by the chart pages; what the first screen loads is
      // checked by the budget, gzipped.
      chunkSizeWarningLimit: 1100,
      rollupOptions: {
        // Two pages: the console and the big screen (/screen/index.html, opened in a new tab).
        input: {
          main: resolve(projectRoot, 'index.html'),
          screen: resolve(projectRoot, 'screen/index.html'),
        },
        // No manual vendor chunks: Rollup's own split keeps each library with the pages that import it
        // (a vendor bucket put echarts, leaflet and the editor into the first download).
        onwarn(warning, warn) {
          // pro-utils' barrel re-exports its editable-table hook, which imports the barrel back. The barrel
          // has no code of its own; the budget check fails the build if chunks do import each other.
          if (warning.code === 'CYCLIC_CROSS_CHUNK_REEXPORT') return;
          warn(warning);
        },
      },
    },
    test: {
      root: projectRoot,
      // The console's own specs and those of the libs/console/* libraries (named *.spec.tsx there,
      // so the workspace jest, which runs *.spec.ts, leaves them alone).
      include: ['src/**/*.spec.{ts,tsx}', 'build/**/*.spec.ts', '../../libs/console/*/src/**/*.spec.tsx'],
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
