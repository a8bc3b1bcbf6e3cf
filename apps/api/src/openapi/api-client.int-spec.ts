import { runClientGenerator } from '@voltdepot/server-testing';
import { startApiTestApp, type ApiTestApp } from '../fixtures/api-test-app';

/**
 * The console's api client (libs/console/api-client/src/generated.ts) is generated from this
 * document: a route added, renamed, re-parametrised or re-typed without regenerating fails here.
 * API_WRITE_CLIENT=1 regenerates the file instead of checking it.
 */
describe("the console's generated api client", () => {
  let t: ApiTestApp;

  beforeAll(async () => {
    t = await startApiTestApp();
  });

  afterAll(async () => {
    await t?.close();
  });

  it('is up to date with /api/docs-json', async () => {
    const doc = (await t.http().get('/api/docs-json').expect(200)).body as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    const { written, output } = await runClientGenerator(
      doc,
      'api',
      'API_WRITE_CLIENT',
      'apps/api/src/openapi/api-client.int-spec.ts',
    );
    expect(output).toContain(written ? 'generated.ts' : 'api client is up to date');
  }, 120_000);
});
