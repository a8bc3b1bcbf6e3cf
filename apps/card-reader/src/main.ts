import { loadCardReaderConfig } from './card-reader.config';
import { startCardReaderAgent } from './card-reader.server';

/** The simulated IC card reader agent: `npm run card-reader` (configuration in card-reader.config.ts). */
async function main(): Promise<void> {
  const config = loadCardReaderConfig();
  const log = (message: string) => console.log(`[card-reader] ${message}`);
  const agent = await startCardReaderAgent(config, log);
  log(
    `listening on ${agent.url} (control: http://127.0.0.1:${agent.port}/cards), console origins ${config.allowedOrigins.join(' ')}` +
      (config.stateFile ? `, state in ${config.stateFile}` : ', state in memory'),
  );
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      agent.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

main().catch((error: unknown) => {
  console.error(`[card-reader] failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
