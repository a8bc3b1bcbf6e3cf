import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createGatewayOpenApiDocument } from './openapi';
import { startGatewayHttpApp, type GatewayHttpApp } from './testing/fixtures/gateway-http-app';

const ROOT = resolve(__dirname, '../../..');
const run = promisify(execFile);

type Operation = { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };

/**
 * The gateway's command API document, and the console's client generated from it
 * (libs/console/api-client/src/ocpp-gateway.generated.ts): a route added, renamed or re-typed without
 * regenerating fails here. GATEWAY_WRITE_CLIENT=1 regenerates the file instead of checking it.
 */
describe('OpenAPI of the gateway', () => {
  let gateway: GatewayHttpApp;
  let dir: string;

  beforeAll(async () => {
    gateway = await startGatewayHttpApp();
    dir = mkdtempSync(join(tmpdir(), 'gateway-docs-'));
  });

  afterAll(async () => {
    await gateway?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('documents the command API with its answers, and nothing else', () => {
    const doc = createGatewayOpenApiDocument(gateway.app) as unknown as {
      paths: Record<string, Record<string, Operation>>;
    };
    const answer = (path: string, method: string, status: string) =>
      doc.paths[path]?.[method]?.responses[status]?.content?.['application/json']?.schema?.$ref;
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/pile/{chargePointId}/command/{action}',
      '/api/pile/{chargePointId}/commands/page/{page}/size/{size}',
      '/api/pile/{chargePointId}/messages/page/{page}/size/{size}',
    ]);
    expect(answer('/api/pile/{chargePointId}/command/{action}', 'post', '200')).toBe(
      '#/components/schemas/GatewayCommandResult',
    );
    expect(answer('/api/pile/{chargePointId}/commands/page/{page}/size/{size}', 'get', '200')).toBe(
      '#/components/schemas/PileCommandRecordPage',
    );
    expect(answer('/api/pile/{chargePointId}/messages/page/{page}/size/{size}', 'get', '200')).toBe(
      '#/components/schemas/OcppFramePage',
    );
    expect(answer('/api/pile/{chargePointId}/command/{action}', 'post', '403')).toBe(
      '#/components/schemas/ErrorBody',
    );
  });

  it("the console's generated gateway client is up to date with the document", async () => {
    const file = join(dir, 'gateway-docs.json');
    writeFileSync(file, JSON.stringify(createGatewayOpenApiDocument(gateway.app)));
    const write = process.env['GATEWAY_WRITE_CLIENT'] === '1';
    const { stdout } = await run(
      process.execPath,
      [
        '-r',
        '@swc-node/register',
        'libs/console/api-client/tools/generate.ts',
        '--from',
        file,
        '--service',
        'ocpp-gateway',
        ...(write ? [] : ['--check']),
      ],
      { cwd: ROOT, env: { ...process.env, SWC_NODE_PROJECT: resolve(ROOT, 'tsconfig.base.json') } },
    ).catch((error: { stderr?: string; message: string }) => {
      throw new Error(
        `${error.stderr?.trim() || error.message}\nregenerate: GATEWAY_WRITE_CLIENT=1 npx jest apps/ocpp-gateway/src/openapi.int-spec.ts --selectProjects integration`,
      );
    });
    expect(stdout).toContain(write ? 'ocpp-gateway.generated.ts' : 'ocpp-gateway client is up to date');
  }, 120_000);
});
