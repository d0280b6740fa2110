-- Hand-written: change notices of kind `edge` (server/core/changes.ts). The connection graph's edge index
-- (server/trust/edge-index.ts) keeps every trust_edges row in memory and re-reads the edges into an agent when a
-- notice names it. `trust` is sent for an edge added or removed and for a trust edge's new strength; a partnership or
-- collaboration edge growing stronger sent nothing (nothing cached depended on it). It now sends `edge`, which only
-- the edge index hears, and only when the strength moved: a partnership edge stops at 1.0 after ten calls between
-- the two agents (the router then skips the pair: server/trust/derive-edges.ts), so its notices stop with it.
CREATE TRIGGER trust_edges_edge_notice AFTER UPDATE ON "trust_edges"
  FOR EACH ROW WHEN (NEW."type" <> 'trust' AND NEW."strength" IS DISTINCT FROM OLD."strength")
  EXECUTE FUNCTION vs_change_notice('edge', 'target_agent_id');
