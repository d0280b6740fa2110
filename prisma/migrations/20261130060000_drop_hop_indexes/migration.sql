-- Hand-written: the graph's walk reads its hops from the edge index in memory (server/trust/edge-index.ts), so the
-- `(source_agent_id, strength DESC)` index of migration scale_maintained_counts serves no statement any more: 89 MB
-- at 1,000,000 edges, written by every edge's insert, update and delete (the primary key, which begins with
-- source_agent_id, serves the reads by source). Its twin by target stays: the index's re-reads and the connection
-- counts read an agent's edges in from it alone (INCLUDE source_agent_id), 19,000 heap rows for a hub without it.
-- An instance of older code during a rolling deploy still walks correctly without it (sorting a node's edges out by
-- strength: slower, for the minutes the deploy takes).
DROP INDEX IF EXISTS "trust_edges_source_strength_idx";
