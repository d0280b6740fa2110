-- The propagated score's own change notice, `rank` (server/core/changes.ts). Its up-to-date mark listened to `trust`
-- notices, which every trust_edges row sends, whatever its type: the first call between two agents (a partnership
-- edge) or a completed job (collaboration edges) re-ran PageRank over every agent within a minute, though the ranking
-- reads only edges of type trust (server/trust/propagated-trust.ts). Under router traffic between new pairs that was
-- a run every minute: seconds of PGlite's one connection at 100,000 agents. Now `rank` is sent for exactly the
-- ranking's inputs:
--   - a trust edge added, removed or changed (its strength is the edge's weight);
--   - an agent added or removed, or its restart weight moved (tier, whether verified, creation date): the triggers of
--     migration rank_input_notices, which sent `trust`; every other listener of `trust` also listens to `agent`, which
--     agents_change_notice sends for every row of agents, so nothing else heard them alone.
-- The `trust` notices of trust_edges stay as they were (the graph, counts and scores of other views depend on every
-- edge).
CREATE TRIGGER trust_edges_rank_insert_notice AFTER INSERT ON "trust_edges"
  FOR EACH ROW WHEN (NEW."type" = 'trust') EXECUTE FUNCTION vs_change_notice('rank', 'target_agent_id');
CREATE TRIGGER trust_edges_rank_delete_notice AFTER DELETE ON "trust_edges"
  FOR EACH ROW WHEN (OLD."type" = 'trust') EXECUTE FUNCTION vs_change_notice('rank', 'target_agent_id');
CREATE TRIGGER trust_edges_rank_update_notice AFTER UPDATE ON "trust_edges"
  FOR EACH ROW WHEN (OLD."type" = 'trust' OR NEW."type" = 'trust') EXECUTE FUNCTION vs_change_notice('rank', 'target_agent_id');

DROP TRIGGER agents_rank_insert_notice ON "agents";
DROP TRIGGER agents_rank_update_notice ON "agents";
DROP TRIGGER agents_rank_delete_notice ON "agents";
CREATE TRIGGER agents_rank_insert_notice AFTER INSERT ON "agents"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('rank', 'id');
CREATE TRIGGER agents_rank_update_notice AFTER UPDATE OF "tier", "verified_at", "created_at" ON "agents"
  FOR EACH ROW WHEN (OLD."tier" IS DISTINCT FROM NEW."tier" OR (OLD."verified_at" IS NULL) <> (NEW."verified_at" IS NULL)
    OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION vs_change_notice('rank', 'id');
CREATE TRIGGER agents_rank_delete_notice AFTER DELETE ON "agents"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('rank', 'id');
