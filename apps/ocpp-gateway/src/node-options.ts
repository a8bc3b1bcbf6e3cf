/**
 * Node options the gateway process must be started with (`node <options> main.js`, or NODE_OPTIONS):
 * V8 sizes its heap when the process starts, so these cannot be set from here.
 *
 * `--max-semi-space-size=64` (MiB; V8's default is 16): a young generation four times as large. When
 * piles start and stop transactions together, each call waits in a group commit for a few hundred
 * milliseconds, and with the default size the objects of those thousands of waiting calls were copied
 * by a scavenge or two and promoted before they died: garbage collection was 18 % of the gateway's CPU in
 * the benchmark's burst. With the larger young generation most of them die young, and the same burst
 * ran at 3,483-4,522 instead of 2,382-3,240 calls/s (docs/benchmarks.md, 2026-11-24 08:00). Costs up to
 * 2 × 48 MiB more memory. `scripts/start.sh` and docker-compose.yml start the gateway with these (a test
 * checks that they do); the service logs a warning when it was started without them. (A module without side effects, unlike
 * v8-flags.ts, so that launchers can import it.)
 */
export const GATEWAY_NODE_OPTIONS = ['--max-semi-space-size=64'] as const;

/**
 * Those of GATEWAY_NODE_OPTIONS this process was not started with: given neither on the command line
 * (`execArgv`) nor in NODE_OPTIONS. An option given with another value counts as given (deliberately).
 */
export function missingNodeOptions(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env['NODE_OPTIONS'] ?? '',
): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((arg) => arg.split('=')[0].replace(/_/g, '-'));
  return GATEWAY_NODE_OPTIONS.filter((option) => !given.includes(option.split('=')[0]));
}
