/** One environment variable that failed validation, and why. */
export type ConfigProblem = { variable: string; reason: string };

/**
 * Thrown by `loadConfig` when the environment does not satisfy the schema.
 * The message lists every problem at once so a deploy can be fixed in one go.
 */
export class ConfigError extends Error {
  constructor(readonly problems: readonly ConfigProblem[]) {
    super(['Invalid configuration:', ...problems.map((p) => ` - ${p.variable}: ${p.reason}`)].join('\n'));
    this.name = 'ConfigError';
  }
}
