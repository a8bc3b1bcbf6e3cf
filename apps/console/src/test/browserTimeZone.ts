import { afterAll, beforeAll, expect } from 'vitest';

/**
 * Runs the spec file's tests with the browser (the process) in `zone`, then puts the zone back: times
 * the console shows must not depend on it. Node reads TZ again whenever it is assigned.
 */
export function withBrowserTimeZone(zone: string): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.TZ;
    process.env.TZ = zone;
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zone);
  });
  afterAll(() => {
    if (before === undefined) delete process.env.TZ;
    else process.env.TZ = before;
  });
}
