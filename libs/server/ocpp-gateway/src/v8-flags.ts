import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings of the gateway process. The library's index loads this module before anything else, and the
 * gateway's entry points (the service's main.ts and the benchmark's gateway child) import the library
 * first, so that they hold before the first allocation they concern.
 *
 * `--no-allocation-site-pretenuring`: V8 allocates objects straight into the old generation from a site
 * whose objects mostly survived young-generation collections. Under the gateway's load it did so for
 * per-call sites (ioredis commands, node-postgres rows, ocpp-rpc's abort signals, by the survivor profile)
 * whose objects die within milliseconds in steady operation; they then piled up in the old generation
 * until a major collection, during which calls waited 278-461 ms on 2 shared cores. Without pretenuring
 * the old generation grew ~4 instead of ~7 MiB/s under the benchmark's steady load (major collections
 * about half as often); see docs/benchmarks.md (2026-11-24).
 */
export const GATEWAY_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

for (const flag of GATEWAY_V8_FLAGS) setFlagsFromString(flag);
