import { z } from '@hono/zod-openapi';
import { EVENT_NAMES, isEventName, type EventName } from '../events/emit';

// Event stream and webhook inputs and outputs (spec: Events; docs/events.md).

export const eventName = z.enum(EVENT_NAMES).openapi({ description: 'An event name (docs/events.md)' });

/** `events=a,b` as a set of known names; an unknown name is 400. */
const eventList = z
  .string()
  .max(2000)
  .transform((value, ctx) => {
    const names = value
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    const unknown = names.filter((name) => !isEventName(name));
    if (unknown.length > 0) {
      ctx.addIssue({ code: 'custom', message: `unknown event name(s): ${unknown.join(', ')}` });
      return z.NEVER;
    }
    return names.length ? new Set(names as EventName[]) : null;
  });

export const streamQuery = z.object({
  token: z
    .string()
    .max(4096)
    .optional()
    .openapi({ description: 'Bearer token, when the Authorization header cannot be set (EventSource)' }),
  events: eventList.optional().openapi({ type: 'string', description: 'Comma-separated event names; default all' }),
  since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'Replay events from this time (at most 24 hours back); ignored when Last-Event-ID is sent' }),
  last_event_id: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional()
    .openapi({ description: 'Same as the Last-Event-ID header, for clients that cannot set it' }),
});
