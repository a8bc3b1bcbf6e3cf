import { Injectable } from '@nestjs/common';

/** Who sent a STOMP SEND frame and how to answer them. */
export type StompCaller = {
  userId: number;
  username: string;
  sessionId: string;
};

export type StompHandler = (
  caller: StompCaller,
  body: Record<string, unknown>,
  command?: string,
) => Promise<void>;

/**
 * Handlers a client may name in a SEND body (`{ "handler": "inbox.unread" }`). Areas register theirs at
 * start-up; a body naming no handler is broadcast as an event instead.
 */
@Injectable()
export class StompHandlerRegistry {
  private readonly handlers = new Map<string, StompHandler>();

  register(name: string, handler: StompHandler): void {
    if (this.handlers.has(name)) throw new Error(`STOMP handler '${name}' registered twice`);
    this.handlers.set(name, handler);
  }

  get(name: string): StompHandler | undefined {
    return this.handlers.get(name);
  }
}
