-- Hand-written: the graph's walk reads its hops from the edge index in memory (server/trust/edge-index.ts), so the
-- `(source|target, strength DESC)` indexes of migration scale_maintained_counts serve no statement any more. They
-- were 89 and 92 MB at 1,000,000 edges, written by every edge's insert, update and delete. An instance of older
-- code during a rolling deploy still walks correctly without them (its hops then sort a node's edges by strength:
-- slower around a hub, for the minutes the deploy takes).
DROP INDEX IF EXISTS "trust_edges_source_strength_idx";
DROP INDEX IF EXISTS "trust_edges_target_strength_idx";
