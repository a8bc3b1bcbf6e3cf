import { defineEvent, type DeadLetter } from '@voltdepot/shared-events';

/** Envelope type for parked events; its topic is `<original topic>.dlq`. */
export const DeadLetterEvent = defineEvent<DeadLetter>()('', 'event.dead-lettered', 1);
