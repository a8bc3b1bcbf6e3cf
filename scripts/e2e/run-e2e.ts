/**
 * Browser tests of the console against the real api (npm run test:e2e). It
 *   1. migrates a fresh PostgreSQL database (vd_e2e_<time>_<random>, dropped afterwards),
 *   2. builds the console (vite build into .var/e2e/console) and starts the api and its worker, the message
 *      centre (and its channel worker) and the OCPP gateway from source on free ports below 32768, with
 *      CAPTCHA_EXPOSE_ANSWER=true, DEMO_DATA=true and their own secrets, on the Redis Streams bus,
 *   3. serves the build with the console's production server (apps/console-server: its caching, security
 *      headers and Content Security Policy), which passes the API paths to the api and /ms to msg-center,
 *   4. runs the scenarios in Debian's chromium through playwright-core, saving screenshots under
 *      .var/e2e-screenshots/, and prints "N passed, N failed". A scenario also fails when a page it opened
 *      threw, logged a console error or had something blocked by the policy, or showed a raw i18n key or
 *      code where a label belongs (checked at every screenshot and at the end; page-problems.ts).
 * Environment: DATABASE_URL, REDIS_URL (as the integration tests), CHROMIUM_PATH (/usr/bin/chromium),
 * E2E_SKIP_BUILD=1 (reuse .var/e2e/console), E2E_ONLY=<text> (scenarios whose name contains it; a|b: either),
 * E2E_RESULTS_JSON=<file> (a jest-like report for scripts/test-summary.js), E2E_HEADED=1,
 * E2E_WORK_DIR=<dir> (build, logs and screenshots there instead of .var/e2e, for parallel runs).
 */
import { dropDatabase, migrateDatabase, withAdminClient, withDatabase } from '@voltdepot/server-database';
import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { BrowserGlobals } from './browser-globals';
import { GATEWAY_NODE_OPTIONS } from '@voltdepot/server-ocpp-gateway';
import { freePort, runCommand, startService, stopService, waitForHttp, type Service } from './harness';
import { PageProblems } from './page-problems';
import { scenarios, type ScenarioContext } from './scenarios/index';

const ROOT = resolve(__dirname, '../..');
/** E2E_WORK_DIR gives a run its own build, logs and screenshots (for runs side by side). */
const WORK_DIR = process.env['E2E_WORK_DIR'] ? resolve(process.env['E2E_WORK_DIR']) : undefined;
const VAR = WORK_DIR ?? join(ROOT, '.var/e2e');
const CONSOLE_DIR = join(VAR, 'console');
const SHOTS = WORK_DIR ? join(WORK_DIR, 'screenshots') : join(ROOT, '.var/e2e-screenshots');
const DOWNLOADS = join(VAR, 'downloads');
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');
const CONSOLE_SERVER = 'apps/console-server/src/main.ts';
const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** Shared by the api (PLATFORM_CONFIG_KEY) and the build (VITE_PLATFORM_CONFIG_KEY); not a secret. */
const PLATFORM_CONFIG_KEY = 'voltdepot-e2e-platform-config';
const SCENARIO_TIMEOUT_MS = 90_000;
const STALE_DATABASE_SECONDS = 3 * 3600;

type Result = { name: string; ok: boolean; ms: number; error?: string };

const log = (message: string) => console.log(`e2e: ${message}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function sweepStaleDatabases(baseUrl: string): Promise<void> {
  await withAdminClient(baseUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE 'vd\\_e2e\\_%'`,
    );
    const now = Math.floor(Date.now() / 1000);
    for (const { datname } of rows) {
      const created = Number(datname.split('_')[2]);
      if (Number.isFinite(created) && now - created > STALE_DATABASE_SECONDS) {
        await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  });
}

async function deleteRedisKeys(redisUrl: string, prefixes: string[]): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for (const prefix of prefixes) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}

/** The api refuses the test-only captcha switch in production configuration (it must exit at start-up). */
async function captchaSwitchRefusedInProduction(env: NodeJS.ProcessEnv, port: number): Promise<void> {
  const service = startService(
    'api (production check)',
    process.execPath,
    ['-r', '@swc-node/register', 'apps/api/src/main.ts'],
    {
      cwd: ROOT,
      env: { ...env, NODE_ENV: 'production', CAPTCHA_EXPOSE_ANSWER: 'true', PORT: String(port) },
      logFile: join(VAR, 'logs/api-production-check.log'),
    },
  );
  const timer = setTimeout(() => service.child.kill('SIGKILL'), 60_000);
  const code = await service.exited;
  clearTimeout(timer);
  if (code === 0 || code === null)
    throw new Error(
      `the api started (or hung) with CAPTCHA_EXPOSE_ANSWER=true in production; see ${service.logFile}`,
    );
  const output = readFileSync(service.logFile, 'utf8');
  if (!output.includes('CAPTCHA_EXPOSE_ANSWER'))
    throw new Error(`the api failed for another reason; see ${service.logFile}`);
}

/**
 * The console's api client is generated from /api/docs-json: a client that no longer matches the api
 * fails the run (E2E_WRITE_API_CLIENT=1 regenerates it; the api's integration test
 * apps/api/src/openapi/api-client.int-spec.ts checks the same).
 */
async function checkApiClient(docsUrl: string): Promise<void> {
  const write = process.env['E2E_WRITE_API_CLIENT'] === '1';
  const args = ['-r', '@swc-node/register', 'libs/console/api-client/tools/generate.ts', '--from', docsUrl];
  const env = { ...process.env, SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json') };
  try {
    const output = await runCommand(process.execPath, write ? args : [...args, '--check'], {
      cwd: ROOT,
      env,
    });
    log(output.trim());
  } catch (error) {
    throw new Error(
      `${(error as Error).message.split('\n').slice(-2).join(' ').trim()} ` +
        '(regenerate: E2E_WRITE_API_CLIENT=1 E2E_ONLY=none npm run test:e2e)',
    );
  }
}

async function main(): Promise<number> {
  const started = Date.now();
  const results: Result[] = [];
  const databaseUrl = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/voltdepot';
  const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
  const only = process.env['E2E_ONLY'];
  const runId = `${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  const authPrefix = `e2e:${runId}:`;
  const busPrefix = `e2e-${runId.replace('_', '-')}`;
  const databaseName = `vd_e2e_${runId}`;
  let databaseCreated = false;
  let api: Service | undefined;
  const others: Service[] = [];
  let consoleServer: Service | undefined;
  let browser: Browser | undefined;

  if (!existsSync(CHROMIUM_PATH)) {
    console.error(
      `e2e: no browser at ${CHROMIUM_PATH}: run bash scripts/ensure-browser.sh (or set CHROMIUM_PATH)`,
    );
    console.log('0 passed, 1 failed');
    return 1;
  }
  rmSync(SHOTS, { recursive: true, force: true });
  rmSync(DOWNLOADS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  mkdirSync(DOWNLOADS, { recursive: true });

  try {
    const ports = new Set<number>();
    const apiPort = await freePort(ports);
    const apiWorkerPort = await freePort(ports);
    const consolePort = await freePort(ports);
    const checkPort = await freePort(ports);
    const msgPort = await freePort(ports);
    const msgWorkerPort = await freePort(ports);
    const gatewayPort = await freePort(ports);
    const ocppPort = await freePort(ports);
    const apiEnv: NodeJS.ProcessEnv = {
      ...process.env,
      SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
      NODE_ENV: 'test',
      PORT: String(apiPort),
      LOG_LEVEL: 'info',
      DATABASE_URL: withDatabase(databaseUrl, databaseName),
      REDIS_URL: redisUrl,
      BUS: 'redis',
      BUS_PREFIX: busPrefix,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      CAPTCHA_EXPOSE_ANSWER: 'true',
      DEMO_DATA: 'true',
      OPENAPI_DOCS: 'true',
      PLATFORM_CONFIG_KEY,
      AUTH_REDIS_KEY_PREFIX: authPrefix,
      // Queues, push fan-out and the gateway's replica registry of this run only: runs side by side
      // (or a developer's own stack) never take each other's jobs or piles.
      MSG_QUEUE_PREFIX: `${busPrefix}-msg`,
      API_QUEUE_PREFIX: `${busPrefix}-api`,
      API_WORKER_PORT: String(apiWorkerPort),
      STOMP_FANOUT_CHANNEL: `${busPrefix}:stomp`,
      OCPP_REDIS_PREFIX: `${busPrefix}-ocpp`,
      AUTH_MAX_ADDRESS_FAILURES: '10000',
      CAPTCHA_MAX_PER_ADDRESS: '10000',
      // The console's proxy runs on this machine and forwards the browser's address.
      TRUST_PROXY: 'loopback',
    };

    log(`database ${databaseName}, api :${apiPort}, console :${consolePort}`);
    const build = (async () => {
      if (process.env['E2E_SKIP_BUILD'] === '1' && existsSync(join(CONSOLE_DIR, 'index.html'))) {
        log('reusing the console build in .var/e2e/console');
        return;
      }
      const t0 = Date.now();
      await runCommand(
        process.execPath,
        [
          VITE,
          'build',
          '--config',
          'apps/console/vite.config.ts',
          '--outDir',
          CONSOLE_DIR,
          '--logLevel',
          'warn',
        ],
        { cwd: ROOT, env: { ...process.env, VITE_PLATFORM_CONFIG_KEY: PLATFORM_CONFIG_KEY } },
      );
      log(`console built in ${seconds(Date.now() - t0)}`);
    })();
    const database = (async () => {
      const t0 = Date.now();
      await sweepStaleDatabases(databaseUrl);
      databaseCreated = true;
      await migrateDatabase(withDatabase(databaseUrl, databaseName), 'voltdepot-e2e');
      log(`database migrated in ${seconds(Date.now() - t0)}`);
    })();
    const productionCheck = (async () => {
      const t0 = Date.now();
      try {
        await captchaSwitchRefusedInProduction({ ...apiEnv, DATABASE_URL: databaseUrl }, checkPort);
        results.push({
          name: 'the api refuses CAPTCHA_EXPOSE_ANSWER=true when NODE_ENV=production',
          ok: true,
          ms: Date.now() - t0,
        });
      } catch (error) {
        results.push({
          name: 'the api refuses CAPTCHA_EXPOSE_ANSWER=true when NODE_ENV=production',
          ok: false,
          ms: Date.now() - t0,
          error: (error as Error).message,
        });
      }
    })();
    await database;
    api = startService('api', process.execPath, ['-r', '@swc-node/register', 'apps/api/src/main.ts'], {
      cwd: ROOT,
      env: apiEnv,
      logFile: join(VAR, 'logs/api.log'),
    });
    await waitForHttp(`http://127.0.0.1:${apiPort}/health`, api);
    log('api is up');
    const ts = (entry: string) => ['-r', '@swc-node/register', entry];
    const msg = startService('msg-center', process.execPath, ts('apps/msg-center/src/main.ts'), {
      cwd: ROOT,
      env: { ...apiEnv, PORT: String(msgPort), SERVICE_NAME: 'msg-center' },
      logFile: join(VAR, 'logs/msg-center.log'),
    });
    const worker = startService(
      'msg-center-worker',
      process.execPath,
      ts('apps/msg-center/src/worker.main.ts'),
      {
        cwd: ROOT,
        env: { ...apiEnv, SERVICE_NAME: 'msg-center', MSG_WORKER_PORT: String(msgWorkerPort) },
        logFile: join(VAR, 'logs/msg-center-worker.log'),
      },
    );
    // As scripts/start.sh starts it: with the gateway's node options.
    const gateway = startService(
      'ocpp-gateway',
      process.execPath,
      [...GATEWAY_NODE_OPTIONS, ...ts('apps/ocpp-gateway/src/main.ts')],
      {
        cwd: ROOT,
        env: {
          ...apiEnv,
          PORT: String(gatewayPort),
          OCPP_PORT: String(ocppPort),
          SERVICE_NAME: 'ocpp-gateway',
        },
        logFile: join(VAR, 'logs/ocpp-gateway.log'),
      },
    );
    // The api's worker: settlement, the monitoring read model and the scheduled jobs.
    const apiWorker = startService('api-worker', process.execPath, ts('apps/api/src/worker.main.ts'), {
      cwd: ROOT,
      env: apiEnv,
      logFile: join(VAR, 'logs/api-worker.log'),
    });
    others.push(msg, worker, gateway, apiWorker);
    await Promise.all([
      waitForHttp(`http://127.0.0.1:${msgPort}/health`, msg),
      waitForHttp(`http://127.0.0.1:${gatewayPort}/health`, gateway),
      waitForHttp(`http://127.0.0.1:${apiWorkerPort}/health`, apiWorker),
    ]);
    log('api worker, msg-center and ocpp-gateway are up');
    await checkApiClient(`http://127.0.0.1:${apiPort}/api/docs-json`);
    await build;
    consoleServer = startService('console', process.execPath, ['-r', '@swc-node/register', CONSOLE_SERVER], {
      cwd: ROOT,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: join(ROOT, 'tsconfig.base.json'),
        PORT: String(consolePort),
        HOST: '127.0.0.1',
        CONSOLE_DIST: CONSOLE_DIR,
        API_UPSTREAM: `http://127.0.0.1:${apiPort}`,
        MS_UPSTREAM: `http://127.0.0.1:${msgPort}`,
      },
      logFile: join(VAR, 'logs/console.log'),
    });
    const baseUrl = `http://127.0.0.1:${consolePort}`;
    await waitForHttp(`${baseUrl}/health`, consoleServer);
    await productionCheck;

    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: process.env['E2E_HEADED'] !== '1',
    });
    const activeBrowser = browser;
    log(`browser ${activeBrowser.version()}; setup took ${seconds(Date.now() - started)}`);

    for (const scenario of scenarios) {
      if (only && !only.split('|').some((part) => scenario.name.includes(part))) continue;
      const contexts: BrowserContext[] = [];
      const problems = new PageProblems();
      const t: ScenarioContext = {
        baseUrl,
        downloadsDir: DOWNLOADS,
        services: {
          apiUrl: `http://127.0.0.1:${apiPort}`,
          msgUrl: `http://127.0.0.1:${msgPort}`,
          gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
          ocppUrl: `ws://127.0.0.1:${ocppPort}/ocpp`,
          databaseUrl: withDatabase(databaseUrl, databaseName),
          redisUrl,
        },
        async newPage(options = {}) {
          const context = await activeBrowser.newContext({
            locale: 'zh-CN',
            timezoneId: 'Asia/Shanghai',
            viewport: { width: 1440, height: 900 },
            acceptDownloads: true,
            ...(options.userAgent ? { userAgent: options.userAgent } : {}),
          });
          contexts.push(context);
          if (options.locale) {
            const locale = options.locale;
            await context.addInitScript((value) => {
              try {
                (globalThis as unknown as BrowserGlobals).localStorage.setItem('voltdepot.locale', value);
              } catch {
                // about:blank and other opaque origins have no storage
              }
            }, locale);
          }
          context.setDefaultTimeout(15_000);
          await problems.watch(context);
          return context.newPage();
        },
        async screenshot(page: Page, name: string) {
          await page.waitForLoadState('networkidle').catch(() => undefined);
          await problems.checkText(page);
          await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
        },
      };
      const t0 = Date.now();
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          scenario.run(t),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`timed out after ${SCENARIO_TIMEOUT_MS / 1000} s`)),
              SCENARIO_TIMEOUT_MS,
            );
          }),
        ]);
        // What every page left open shows at the end: no raw i18n key, no raw code.
        for (const page of contexts.flatMap((context) => context.pages())) await problems.checkText(page);
        if (problems.list().length > 0) throw new Error('the browser reported problems');
        results.push({ name: scenario.name, ok: true, ms: Date.now() - t0 });
        console.log(`  ✓ ${scenario.name} (${seconds(Date.now() - t0)})`);
      } catch (error) {
        const seen = problems.list();
        const message = [
          error instanceof Error ? error.message.split('\n').slice(0, 8).join('\n') : String(error),
          ...(seen.length > 0
            ? [`the browser reported ${seen.length} problem(s):`, ...seen.slice(0, 30)]
            : []),
        ].join('\n');
        results.push({ name: scenario.name, ok: false, ms: Date.now() - t0, error: message });
        console.log(
          `  ✗ ${scenario.name} (${seconds(Date.now() - t0)})\n      ${message.replace(/\n/g, '\n      ')}`,
        );
        const page = contexts.at(-1)?.pages().at(-1);
        if (page) {
          const name = `FAILED-${scenario.name.replace(/[^A-Za-z0-9]+/g, '-').slice(0, 60)}`;
          await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true }).catch(() => undefined);
        }
      } finally {
        clearTimeout(timer);
        for (const context of contexts) await context.close().catch(() => undefined);
      }
    }
  } catch (error) {
    results.push({ name: 'set-up', ok: false, ms: Date.now() - started, error: (error as Error).message });
    console.error(`e2e: set-up failed: ${(error as Error).message}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await stopService(consoleServer);
    for (const service of others.reverse()) await stopService(service);
    await stopService(api);
    if (databaseCreated)
      await dropDatabase(databaseUrl, databaseName).catch((error: Error) =>
        log(`could not drop ${databaseName}: ${error.message}`),
      );
    await deleteRedisKeys(redisUrl, [authPrefix, busPrefix]).catch((error: Error) =>
      log(`could not clean Redis: ${error.message}`),
    );
  }

  const passed = results.filter((result) => result.ok).length;
  const failed = results.length - passed;
  const production = results.find((result) => result.name.startsWith('the api refuses'));
  if (production)
    console.log(
      `  ${production.ok ? '✓' : '✗'} ${production.name} (${seconds(production.ms)})${production.error ? `\n      ${production.error}` : ''}`,
    );
  log(`screenshots in ${SHOTS}; logs in ${join(VAR, 'logs')}; took ${seconds(Date.now() - started)}`);
  const report = process.env['E2E_RESULTS_JSON'];
  if (report) {
    mkdirSync(dirname(report), { recursive: true });
    writeFileSync(
      report,
      JSON.stringify(
        {
          numPassedTests: passed,
          numFailedTests: failed,
          testResults: [
            {
              name: 'browser tests',
              status: failed === 0 ? 'passed' : 'failed',
              assertionResults: results.map((result) => ({
                title: result.name,
                status: result.ok ? 'passed' : 'failed',
                duration: result.ms,
                failureMessages: result.error ? [result.error] : [],
              })),
            },
          ],
        },
        null,
        2,
      ),
    );
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
