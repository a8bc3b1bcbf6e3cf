import { Injectable } from '@nestjs/common';
import type { StompPrincipal } from './stomp-session';

/**
 * Decides whether a signed-in session may SUBSCRIBE to a destination under a prefix; throws a
 * StompProtocolError to refuse (the client then gets an ERROR frame).
 */
export type SubscriptionGuard = (principal: StompPrincipal, destination: string) => Promise<void>;

/**
 * Areas whose topics are not for every signed-in user register a guard for their destination prefix at
 * start-up (e.g. `/topic/monitor/`). Destinations no guard claims stay open to every session, as before.
 */
@Injectable()
export class StompSubscriptionGuards {
  private readonly guards: [prefix: string, guard: SubscriptionGuard][] = [];

  register(prefix: string, guard: SubscriptionGuard): void {
    if (this.guards.some(([p]) => p === prefix))
      throw new Error(`STOMP guard for '${prefix}' registered twice`);
    this.guards.push([prefix, guard]);
  }

  async check(principal: StompPrincipal, destination: string): Promise<void> {
    for (const [prefix, guard] of this.guards) {
      if (destination.startsWith(prefix)) await guard(principal, destination);
    }
  }
}
