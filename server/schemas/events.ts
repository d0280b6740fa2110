import { z } from '@hono/zod-openapi';

// Event stream and webhook inputs and outputs (spec: Events; docs/events.md).

// The platform's event names (spec: Events).
export const EVENT_NAMES = [
  'agent.registered',
  'agent.tier_upgraded',
  'agent.invoked',
  'smart_money.alert',
  'smart_money.large_swap',
  'smart_money.swap',
  'smart_money.new_position',
  'smart_money.exit',
  'scan.completed',
  'skill.published',
  'skill.installed',
  'job.posted',
  'job.bid',
  'job.completed',
  'pipeline.run_stopped',
  'job.cancelled',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

export function isEventName(name: string): name is EventName {
  return (EVENT_NAMES as readonly string[]).includes(name);
}

/** The lowest tier that may receive an event (spec: Events, Min tier); 'none' is the spec's free. */
export const EVENT_MIN_TIER: Record<EventName, 'none' | 'entry'> = {
  'agent.registered': 'none',
  'agent.tier_upgraded': 'none',
  'agent.invoked': 'none',
  'smart_money.alert': 'entry',
  'smart_money.large_swap': 'entry',
  'smart_money.swap': 'entry',
  'smart_money.new_position': 'entry',
  'smart_money.exit': 'entry',
  'scan.completed': 'none',
  'skill.published': 'none',
  'skill.installed': 'entry',
  'job.posted': 'none',
  'job.bid': 'none',
  'job.completed': 'none',
  'pipeline.run_stopped': 'none',
  'job.cancelled': 'none',
};

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

/** A log position the database can hold (bigint): 19 digits reach past it. */
const isEventId = (value: string) => !/^\d+$/.test(value) || BigInt(value) <= 9223372036854775807n;

export const streamQuery = z.object({
  token: z
    .string()
    .max(4096)
    .optional()
    .openapi({ description: 'Bearer token, when the Authorization header cannot be set (EventSource)' }),
  events: eventList.optional().openapi({ type: 'string', description: 'Comma-separated event names; default all' }),
  since: z.iso.datetime({ offset: true }).optional().openapi({
    description:
      'Replay events from this time (at most 24 hours back; an older time counts as 24 hours ago); ignored when Last-Event-ID is sent',
  }),
  last_event_id: z
    .string()
    .regex(/^\d{1,19}$/)
    .refine(isEventId, 'must be an event id (at most 9223372036854775807)')
    .optional()
    .openapi({ description: 'Same as the Last-Event-ID header, for clients that cannot set it' }),
});

export const streamHeaders = z.object({
  'Last-Event-ID': z
    .string()
    .trim()
    .regex(/^\d{1,19}$/, 'must be a decimal event id')
    .refine(isEventId, 'must be an event id (at most 9223372036854775807)')
    .optional()
    .openapi({
      description: 'The id of the last event received: the stream resumes after it (takes precedence over last_event_id)',
    }),
});
