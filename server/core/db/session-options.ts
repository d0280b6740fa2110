/**
 * Settings of every pooled session (the primary's and a replica's). `jit=off`: PostgreSQL compiles a plan whose
 * estimated cost passes `jit_above_cost` (100,000) with LLVM at every execution, and the estimates of a statement
 * over CTEs (the agent_stats refresh, which runs every 2 s) pass it however little the statement finds: 0.75 s
 * of compiling a run that then did nothing, 40% of a core at the large preset. No statement here gains it back.
 */
export const SESSION_OPTIONS = '-c jit=off';
