-- Hand-written (INCLUDE is not expressible in schema.prisma): index-only reads of an agent's node in the connection
-- graph (server/trust/connection-graph.ts, answerAround) and of its maintained trust counts wherever a read joins
-- agent_stats by agent (TRUST_COUNT_COLUMNS, server/trust/trust-counts.ts).
--
-- A graph's node read looked up each of its up to 200 agents twice, through agents_pkey to the agents heap and
-- through agent_stats_pkey to the agent_stats heap: 1,587 buffers, about 790 of them distinct random pages, for a
-- depth-2 graph of the large preset, the largest share of the pages a first graph reads (the cold p50 of issue 21).
-- With these two indexes it is two index-only scans: 1,207 buffers, about 400 random pages, and 2.4 ms instead of
-- 6.2 ms of execution with every page in shared buffers (EXPLAIN ANALYZE, 2026-11-29).
--
-- The agent_stats index replaces agent_stats_agent_id_trust_score_idx (the trust filter's index-only probe,
-- server/directory/list-agents.ts), whose key and included score it keeps. Cost: an UPDATE of every agent_stats row's
-- propagated_trust took 3.0 s instead of 2.4 s at 100,000 agents (the propagated score's write-back is a background
-- job bounded under 10 s); the agents index is touched only when an agent's owner, handle, name or tier changes.
CREATE INDEX "agents_id_graph_node_idx" ON "agents" ("id") INCLUDE ("owner_wallet", "handle", "name", "tier", "created_at");
CREATE INDEX "agent_stats_agent_id_counts_idx" ON "agent_stats" ("agent_id")
  INCLUDE ("trust_score", "verified", "published_skills", "received", "endorsement_count", "connections", "propagated_trust");
DROP INDEX "agent_stats_agent_id_trust_score_idx";
