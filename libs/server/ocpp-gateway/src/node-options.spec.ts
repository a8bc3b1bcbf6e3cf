import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_NODE_OPTIONS, missingNodeOptions } from './node-options';

const ROOT = join(__dirname, '../../../..');

describe('the gateway’s node options', () => {
  it('are missing unless given on the command line or in NODE_OPTIONS', () => {
    expect(missingNodeOptions([], '')).toEqual([...GATEWAY_NODE_OPTIONS]);
    expect(missingNodeOptions(['--max-semi-space-size=32'], '')).toEqual([]);
    expect(missingNodeOptions([], '--inspect  --max-semi-space-size=32')).toEqual([]);
    // V8 takes underscores for dashes; another value is a deliberate choice, not a missing option.
    expect(missingNodeOptions(['--max_semi_space_size=48'], '')).toEqual([]);
    // A similar but different option is not it.
    expect(missingNodeOptions(['--max-old-space-size=64', '--semi-space-growth-factor=2'], '')).toEqual([
      '--max-semi-space-size=32',
    ]);
  });

  it('are what scripts/start.sh and docker-compose.yml start the gateway with', () => {
    const start = readFileSync(join(ROOT, 'scripts/start.sh'), 'utf8');
    const launch = start.split('\n').find((line) => line.includes('dist/apps/ocpp-gateway/'));
    expect(launch).toBeDefined();
    expect(launch).toContain(`node ${GATEWAY_NODE_OPTIONS.join(' ')} dist/apps/ocpp-gateway/`);

    const compose = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
    // The service's block: from its key to the next key at the same indentation.
    const block = /^ {2}ocpp-gateway:\n((?: {4,}.*\n|\s*\n)+)/m.exec(compose)?.[1];
    expect(block).toBeDefined();
    expect(block).toMatch(new RegExp(`^ +NODE_OPTIONS: ${GATEWAY_NODE_OPTIONS.join(' ')}$`, 'm'));
  });
});
