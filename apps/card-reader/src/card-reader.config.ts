import { CARD_READER_DEFAULT_PORT } from '@voltdepot/shared-contracts';

export type CardReaderConfig = {
  port: number;
  allowedOrigins: string[];
  stateFile: string | undefined;
};

/** The console's origins in development (Vite, `nx run console:serve`) and from its production server. */
const CONSOLE_ORIGINS = 'http://localhost:4200,http://127.0.0.1:4200';

/**
 * The agent's environment:
 * - CARD_READER_PORT (4455): the port on 127.0.0.1; 0 picks a free one.
 * - CARD_READER_ALLOWED_ORIGINS (http://localhost:4200,http://127.0.0.1:4200): the console's origins, comma-
 *   or space-separated; a page of any other origin is refused.
 * - CARD_READER_STATE_FILE (none): a JSON file with the simulated cards, the card in the slot and the card
 *   keys; read at start when it exists and written after every change. Without it the state lives in memory.
 */
export function loadCardReaderConfig(env: NodeJS.ProcessEnv = process.env): CardReaderConfig {
  const rawPort = env['CARD_READER_PORT']?.trim() || String(CARD_READER_DEFAULT_PORT);
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65_535) {
    throw new Error(`CARD_READER_PORT must be a port number (0-65535), got '${rawPort}'`);
  }
  const allowedOrigins = (env['CARD_READER_ALLOWED_ORIGINS'] ?? CONSOLE_ORIGINS)
    .split(/[\s,]+/)
    .filter((origin) => origin !== '');
  const bad = allowedOrigins.filter((origin) => !/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin));
  if (bad.length > 0) {
    throw new Error(
      `CARD_READER_ALLOWED_ORIGINS takes origins like http://localhost:4200, got '${bad.join(' ')}'`,
    );
  }
  return { port, allowedOrigins, stateFile: env['CARD_READER_STATE_FILE']?.trim() || undefined };
}
