/**
 * The module-boundary rules must really bite: lint sample imports as if they were files of the
 * workspace and check which ones are refused.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

function lint(fileName: string, source: string): string[] {
  const result = spawnSync(
    process.execPath,
    [
      resolve(ROOT, 'node_modules/eslint/bin/eslint.js'),
      '--format',
      'json',
      '--stdin',
      '--stdin-filename',
      fileName,
    ],
    {
      cwd: ROOT,
      input: source,
      encoding: 'utf8',
      // The files linted here are made up: no project holds them, so no types (see eslint.config.mjs).
      env: { ...process.env, NX_DAEMON: 'false', VOLTDEPOT_LINT_TYPES: 'off' },
    },
  );
  if (!result.stdout) throw new Error(`eslint produced no report: ${result.stderr}`);
  const [report] = JSON.parse(result.stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return report.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('module boundaries', () => {
  it.each([
    [
      'console code importing server code',
      'apps/console/src/x.ts',
      "import { loadConfig } from '@voltdepot/server-core';\nexport const x = loadConfig;\n",
      /enforce-module-boundaries/,
    ],
    [
      'shared code importing server code',
      'libs/shared/events/src/x.ts',
      "import { loadConfig } from '@voltdepot/server-core';\nexport const x = loadConfig;\n",
      /enforce-module-boundaries/,
    ],
    [
      'production server code importing the testing library',
      'libs/server/messaging/src/x.ts',
      "import { eventually } from '@voltdepot/server-testing';\nexport const x = eventually;\n",
      /enforce-module-boundaries/,
    ],
    [
      "the console's data-access library (generated API clients) importing UI components",
      'libs/console/api-client/src/x.ts',
      "import { GuardedButton } from '@voltdepot/console-ui';\nexport const x = GuardedButton;\n",
      /enforce-module-boundaries/,
    ],
    [
      'a deep import into another library',
      'libs/server/testing/src/x.ts',
      "import { x } from '@voltdepot/server-database/src/admin';\nexport const y = x;\n",
      /no-restricted-imports/,
    ],
    [
      'a relative path into libs/',
      'bench/x.ts',
      "import { x } from '../libs/server/database/src/admin';\nexport const y = x;\n",
      /no-restricted-imports/,
    ],
    [
      "a benchmark importing an app's source",
      'bench/gateway/x.ts',
      "import { GATEWAY_NODE_OPTIONS } from '../../apps/ocpp-gateway/src/node-options';\nexport const y = GATEWAY_NODE_OPTIONS;\n",
      /voltdepot\/no-foreign-app-imports/,
    ],
    [
      "a script importing an app's source",
      'scripts/e2e/x.ts',
      "import { AppModule } from '../../apps/api/src/app.module';\nexport const y = AppModule;\n",
      /voltdepot\/no-foreign-app-imports/,
    ],
    [
      "an app importing another app's source by a relative path",
      'apps/api/src/assets/x.int-spec.ts',
      "import { gatewayConfigSchema } from '../../../ocpp-gateway/src/app.config';\nexport const y = gatewayConfigSchema;\n",
      /voltdepot\/no-foreign-app-imports/,
    ],
    [
      "an app's source by its workspace path",
      'apps/msg-center/src/x.ts',
      "import { AppModule } from 'apps/api/src/app.module';\nexport const y = AppModule;\n",
      /voltdepot\/no-foreign-app-imports/,
    ],
    [
      "a library requiring an app's source",
      'libs/server/billing/src/x.ts',
      "export const y = require('../../../../apps/ocpp-gateway/src/app.module');\n",
      /voltdepot\/no-foreign-app-imports/,
    ],
  ])(
    'refuses %s',
    (_name, file, source, rule) => {
      expect(lint(file, source).join('\n')).toMatch(rule);
    },
    30_000,
  );

  it("allows the console's UI library to use the data-access library, and data-access to use contracts", () => {
    expect(
      lint(
        'libs/console/ui/src/x.ts',
        "import { apiPath } from '@voltdepot/console-api-client';\nexport const x = apiPath;\n",
      ),
    ).toEqual([]);
    expect(
      lint(
        'libs/console/api-client/src/x.ts',
        "import { CommonErrorCodes } from '@voltdepot/shared-contracts';\nexport const x = CommonErrorCodes;\n",
      ),
    ).toEqual([]);
  }, 30_000);

  it("allows an app's own relative imports, within src and from beside it", () => {
    expect(
      lint(
        'apps/api/src/assets/x.int-spec.ts',
        "import { startApiTestApp } from '../fixtures/api-test-app';\nexport const y = startApiTestApp;\n",
      ),
    ).toEqual([]);
    expect(
      lint(
        'apps/ocpp-gateway/x.ts',
        "import { gatewayConfigSchema } from './src/app.config';\nexport const y = gatewayConfigSchema;\n",
      ),
    ).toEqual([]);
  }, 30_000);

  it('allows a test file to use the testing library and an infra lib to use contracts', () => {
    expect(
      lint(
        'libs/server/messaging/src/x.int-spec.ts',
        "import { eventually } from '@voltdepot/server-testing';\nexport const x = eventually;\n",
      ),
    ).toEqual([]);
    expect(
      lint(
        'libs/server/messaging/src/y.ts',
        "import { Topics } from '@voltdepot/shared-events';\nexport const x = Topics;\n",
      ),
    ).toEqual([]);
  }, 30_000);
});
