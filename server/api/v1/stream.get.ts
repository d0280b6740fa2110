// GET /api/v1/stream - Server-Sent Events of the event log (spec: Events, Event stream)
import { tierAtLeast, tierOfWallet } from '../../agents/tiers';
import { endpoint } from '../../http/endpoint';
import { streamHeaders, streamQuery } from '../../schemas/events';
import { openStream } from '../../stream/open-stream';

export default endpoint({
  method: 'get',
  path: '/api/v1/stream',
  summary: 'Live events as Server-Sent Events, resumable with Last-Event-ID',
  description:
    'Authenticate with a bearer token in the Authorization header (or an API key in X-API-Key), or `?token=<bearer token>` for EventSource. ' +
    'Every event carries `id:` (its log position); send it back as Last-Event-ID (or `last_event_id`) to resume with no gap and no duplicate ' +
    '(within the 24 hours the log replays: an older position resumes 24 hours back). ' +
    '`since` replays up to 24 hours back. A `heartbeat` event comes every 15 s, and a `reconnect` event before the server closes the stream ' +
    '(shutdown, one hour of age, a reader too far behind, or the revocation of the token or API key that opened it). Each caller sees public events, private events it is part of (invocations it ' +
    'made or received) and tier-gated events (smart_money.*, skill.installed) from the entry tier. At most 5 open streams per caller (429). See docs/events.md.',
  tags: ['Events'],
  auth: ['bearer', 'api_key', 'query_token'],
  query: streamQuery,
  headers: streamHeaders,
  status: 200,
  response: { kind: 'event-stream', description: 'text/event-stream of event envelopes {id, event, timestamp, data}' },
  errors: {
    401: 'No valid bearer token (header or token query) or API key',
    429: 'Too many open streams for this caller',
    503: 'The instance holds STREAM_MAX_OPEN open streams (Retry-After)',
  },
  async handler({ query, headers, caller, request }) {
    const lastEventId = headers['Last-Event-ID'] ?? query.last_event_id;
    // The spec: `since` "replays up to 24 h back". An older time (or Last-Event-ID) is clamped to 24 h ago rather
    // than refused, so a client resuming after a long gap reconnects and gets everything still replayable.
    const since = query.since ? new Date(query.since) : null;
    const tier = await tierOfWallet(caller.wallet);
    return openStream({
      viewer: { wallet: caller.wallet.toLowerCase(), entryTier: tierAtLeast(tier, 'entry') },
      events: query.events ?? null,
      after: lastEventId ? BigInt(lastEventId) : null,
      since,
      credentialId: caller.credentialId,
      signal: request.signal,
    });
  },
});
