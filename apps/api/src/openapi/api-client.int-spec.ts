import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { startApiTestApp, type ApiTestApp } from '../fixtures/api-test-app';

const ROOT = resolve(__dirname, '../../../..');
const run = promisify(execFile);

/**
 * The console's api client (libs/console/api-client/src/generated.ts) is generated from this
 * document: a route added, renamed or re-parametrised without regenerating fails here.
 * API_WRITE_CLIENT=1 regenerates the file instead of checking it.
 */
describe("the console's generated api client", () => {
  let t: ApiTestApp;
  let dir: string;

  beforeAll(async () => {
    t = await startApiTestApp();
    dir = mkdtempSync(join(tmpdir(), 'api-docs-'));
  });

  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is up to date with /api/docs-json', async () => {
    const doc = (await t.http().get('/api/docs-json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    const file = join(dir, 'api-docs.json');
    writeFileSync(file, JSON.stringify(doc));
    const write = process.env['API_WRITE_CLIENT'] === '1';
    const { stdout } = await run(
      process.execPath,
      [
        '-r',
        '@swc-node/register',
        'libs/console/api-client/tools/generate.ts',
        '--from',
        file,
        '--service',
        'api',
        ...(write ? [] : ['--check']),
      ],
      { cwd: ROOT, env: { ...process.env, SWC_NODE_PROJECT: resolve(ROOT, 'tsconfig.base.json') } },
    ).catch((error: { stderr?: string; message: string }) => {
      throw new Error(
        `${error.stderr?.trim() || error.message}\nregenerate: API_WRITE_CLIENT=1 npx jest --selectProjects integration --testPathPatterns api-client.int-spec`,
      );
    });
    expect(stdout).toContain(write ? 'generated.ts' : 'api client is up to date');
  }, 120_000);
});
