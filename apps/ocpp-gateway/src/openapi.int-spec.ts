import { runClientGenerator } from '@voltdepot/server-testing';
import { createGatewayOpenApiDocument } from './openapi';
import { startGatewayHttpApp, type GatewayHttpApp } from './testing/fixtures/gateway-http-app';

type Operation = { responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }> };

/**
 * The gateway's command API document, and the console's client generated from it
 * (libs/console/api-client/src/ocpp-gateway.generated.ts): a route added, renamed or re-typed without
 * regenerating fails here. GATEWAY_WRITE_CLIENT=1 regenerates the file instead of checking it.
 */
describe('OpenAPI of the gateway', () => {
  let gateway: GatewayHttpApp;

  beforeAll(async () => {
    gateway = await startGatewayHttpApp();
  });

  afterAll(async () => {
    await gateway?.close();
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
    const { written, output } = await runClientGenerator(
      createGatewayOpenApiDocument(gateway.app),
      'ocpp-gateway',
      'GATEWAY_WRITE_CLIENT',
      'apps/ocpp-gateway/src/openapi.int-spec.ts',
    );
    expect(output).toContain(written ? 'ocpp-gateway.generated.ts' : 'ocpp-gateway client is up to date');
  }, 120_000);
});
