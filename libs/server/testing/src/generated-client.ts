import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../../../..');
const run = promisify(execFile);

/**
 * Runs the console's client generator (libs/console/api-client/tools/generate.ts) on a service's OpenAPI
 * document: with `--check` (the committed client must be what the document generates), or writing the
 * client when the environment variable `writeVariable` is 1. Resolves with what it printed; rejects with
 * the generator's complaint and how to regenerate.
 */
export async function runClientGenerator(
  document: unknown,
  service: 'api' | 'msg-center' | 'ocpp-gateway',
  writeVariable: string,
  testFile: string,
): Promise<{ written: boolean; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), `${service}-docs-`));
  const file = join(dir, 'openapi.json');
  const written = process.env[writeVariable] === '1';
  try {
    writeFileSync(file, JSON.stringify(document));
    const { stdout } = await run(
      process.execPath,
      [
        '-r',
        '@swc-node/register',
        'libs/console/api-client/tools/generate.ts',
        '--from',
        file,
        '--service',
        service,
        ...(written ? [] : ['--check']),
      ],
      { cwd: ROOT, env: { ...process.env, SWC_NODE_PROJECT: resolve(ROOT, 'tsconfig.base.json') } },
    ).catch((error: { stderr?: string; message: string }) => {
      throw new Error(
        `${error.stderr?.trim() || error.message}\nregenerate: ${writeVariable}=1 npx jest ${testFile} --selectProjects integration`,
      );
    });
    return { written, output: stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
