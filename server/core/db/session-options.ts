/**
 * Settings of every pooled session (the primary's and a replica's). `jit=off`: PostgreSQL compiles a plan whose
 * estimated cost passes `jit_above_cost` (100,000) with LLVM at every execution, and the estimates of a statement
 * over CTEs (the agent_stats refresh, which runs every 2 s) pass it however little the statement finds: 0.75 s
 * of compiling a run that then did nothing, 40% of a core at the large preset. No statement here gains it back.
 */
export const SESSION_OPTIONS = '-c jit=off';

/**
 * How long an idle pooled connection is kept (node-postgres closes one after 10 s by default). A new connection
 * costs a connect and a new plan for every prepared statement: with the default, the connections a burst of
 * scheduled jobs or a parallel read opened were gone again by the next, and a graph read that met a fresh one
 * took 10-25 ms more.
 */
export const POOL_IDLE_MS = 300_000;
