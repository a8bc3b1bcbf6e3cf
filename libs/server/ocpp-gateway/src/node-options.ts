/**
 * Node options the gateway process must be started with (`node <options> main.js`, or NODE_OPTIONS):
 * V8 sizes its heap when the process starts, so these cannot be set from here.
 *
 * `--max-semi-space-size=32` (MiB; V8's default is 16): a young generation twice as large. When piles
 * start and stop transactions together, each call waits in a group commit for a few hundred
 * milliseconds, and with the default size the objects of those thousands of waiting calls were copied
 * by a scavenge or two and promoted before they died: garbage collection was 18 % of the gateway's CPU
 * in the benchmark's burst (6 % with 64 MiB). In 20 s benchmark runs the burst went from 1,943-3,240
 * (mean 2,541) calls/s to 2,750-4,153 (mean 3,514) with 32 MiB and 2,477-4,522 (mean 3,437) with 64;
 * 64 and 128 MiB made more scavenges pause the steady load for over 50 ms (each copies what is alive
 * in a larger young generation) and cost ~5 KiB more RSS per connection, 32 did neither
 * (docs/benchmarks.md, 2026-11-24 08:00-09:00). It costs at most 2 × 16 MiB more memory.
 *
 * `scripts/start.sh`, docker-compose.yml, the end-to-end runner and the benchmarks start the gateway
 * with these (a test checks the first two); the service logs a warning when it was started without
 * them. Launchers take them from the library's index, which also applies v8-flags.ts in the launcher's own
 * process: harmless there (it only changes where V8 places long-lived objects).
 */
export const GATEWAY_NODE_OPTIONS = ['--max-semi-space-size=32'] as const;

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
