// An asynchronous commit for one statement (docs/spec-decisions.md, Durability of commits): a statement that
// selects or returns ASYNC_COMMIT commits without waiting for its WAL record to reach the disk. The setting is
// local to the statement's own (implicit) transaction: the connection's next statement commits durably again.
// What it saves is the commit's flush, 1.5-9 ms on this machine's disk; what it risks is that a PostgreSQL crash
// (not an application crash) loses the last fraction of a second of such commits. Readers see the commit at once
// either way, and any later durable commit flushes it too. On PGlite the runner commits such a statement durably
// (server/core/db/sql-runner.ts): there an application crash is a database crash.
// Only for a statement run alone on the pool: inside a transaction it would make the whole transaction asynchronous.

/** A select-list or RETURNING expression that makes the statement's commit asynchronous. */
export const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true)`;
