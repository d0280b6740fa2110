import pino from 'pino';

// Structured JSON logs on stdout. The level comes from LOG_LEVEL through the configuration when
// the runtime starts; until then (and in unit tests) only warnings and errors are written.
export const log = pino({
  level: 'warn',
  base: { service: 'vouchsafe' },
  timestamp: pino.stdTimeFunctions.isoTime,
});
