import pino from 'pino';

// Structured JSON logs on stdout. LOG_LEVEL is read here rather than from config so that the
// logger exists before configuration is validated (and can report a bad configuration).
export const log = pino({
  level: process.env.LOG_LEVEL || (process.env.VITEST ? 'silent' : 'info'),
  base: { service: 'vouchsafe' },
  timestamp: pino.stdTimeFunctions.isoTime,
});
