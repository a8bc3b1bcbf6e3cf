import { monitorFeedChannel, parseMonitorPush, StationWatchPolicy, stationOfTopic } from './station-watch';

describe('station topics', () => {
  it.each([
    ['/topic/monitor/station/12', 12],
    ['/topic/monitor/station/0', undefined],
    ['/topic/monitor/station/012', undefined],
    ['/topic/monitor/station/12/x', undefined],
    ['/topic/monitor/station/', undefined],
    ['/topic/monitor/stations/12', undefined],
    ['/topic/inbox', undefined],
  ])('%s names station %s', (destination, station) => expect(stationOfTopic(destination)).toBe(station));

  it('accepts only pushes naming a station and carrying piles', () => {
    expect(parseMonitorPush('{"stationId":3,"at":"x","piles":[]}')).toEqual({
      stationId: 3,
      at: 'x',
      piles: [],
    });
    expect(parseMonitorPush('{"stationId":"3","piles":[]}')).toBeUndefined();
    expect(parseMonitorPush('{"stationId":3}')).toBeUndefined();
    expect(parseMonitorPush('nope')).toBeUndefined();
  });

  it('announces on a channel of the bus prefix', () => expect(monitorFeedChannel('vd')).toBe('vd:mon:feed'));
});

describe('who may watch a station', () => {
  /** The identity and asset reads behind the policy, in memory, counting how often they are asked. */
  function world(options: { permissions?: string[] | null; stations?: number[] } = {}) {
    const reads = { permissions: 0, scope: 0, stations: 0 };
    let failNext = false;
    let clock = 0;
    const policy = new StationWatchPolicy(
      {
        stationIdsInScope: async (scope) => {
          reads.stations++;
          expect(scope).toEqual({ pathPatterns: ['/1/2/%'] });
          return options.stations ?? [3, 4];
        },
      },
      {
        scopeOf: async () => {
          reads.scope++;
          return { pathPatterns: ['/1/2/%'] };
        },
      },
      {
        permissionsOf: async () => {
          reads.permissions++;
          if (failNext) {
            failNext = false;
            throw new Error('database down');
          }
          const codes = options.permissions === undefined ? ['operation:busList'] : options.permissions;
          return codes === null ? null : new Set(codes);
        },
      },
      { cacheMs: 5_000, now: () => clock },
    );
    return {
      policy,
      reads,
      failOnce: () => void (failNext = true),
      advance: (ms: number) => void (clock += ms),
    };
  }

  it('allows a holder of a monitoring permission the stations of their scope only', async () => {
    const { policy } = world();
    expect(await policy.decide(7, 3)).toEqual({ allowed: true });
    expect(await policy.decide(7, 5)).toEqual({ allowed: false, reason: 'Station 5 does not exist' });
    // Beyond the integer range of ids: just another station that does not exist.
    expect(await policy.decide(7, 9_999_999_999)).toEqual({
      allowed: false,
      reason: 'Station 9999999999 does not exist',
    });
  });

  it('refuses a user without a monitoring permission, or a disabled one, before reading the scope', async () => {
    for (const permissions of [['pile:command', 'system:user'], null]) {
      const { policy, reads } = world({ permissions });
      expect(await policy.decide(7, 3)).toEqual({
        allowed: false,
        reason:
          'Missing permission: one of operation:stationMonitor, operation:pileMonitor, operation:busList',
      });
      expect(reads.scope).toBe(0);
    }
  });

  it("reads a user's permissions and stations once for a screen's burst of subscriptions", async () => {
    const { policy, reads, advance } = world();
    const decisions = await Promise.all([3, 4, 5, 3].map((station) => policy.decide(7, station)));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, false, true]);
    expect(reads).toEqual({ permissions: 1, scope: 1, stations: 1 });
    await policy.decide(8, 3); // another user reads their own
    expect(reads.permissions).toBe(2);
    advance(5_000); // later, a change of role or scope counts
    await policy.decide(7, 3);
    expect(reads).toEqual({ permissions: 3, scope: 3, stations: 3 });
  });

  it('does not remember a failed read', async () => {
    const { policy, reads, failOnce } = world();
    failOnce();
    await expect(policy.decide(7, 3)).rejects.toThrow('database down');
    expect(await policy.decide(7, 3)).toEqual({ allowed: true });
    expect(reads.permissions).toBe(2);
  });
});
