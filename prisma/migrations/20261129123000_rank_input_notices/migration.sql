-- The propagated score (server/trust/propagated-trust.ts) is recomputed when its inputs change: trust edges (the
-- `trust` notices of migration change_notices), the agents, and each agent's restart weight (TRUST_SEED_WEIGHT_SQL:
-- verified, tier, a month of age). It used to listen to every `agent` notice, so a bio edit re-ran PageRank over the
-- whole graph within a minute (seconds of PGlite's one connection at 100,000 agents). An agent change now publishes a
-- `trust` notice only when it can move a score:
--   - a new agent, weighted or not: while no agent has a weight the ranking restarts at every agent alike
--     (server/trust/page-rank.ts), so a new agent takes a share of every score;
--   - a change of tier, of whether verified_at is set, or of created_at;
--   - a deletion (its edges go with it, and those send their own notices too).
-- Crossing the month of age with no change is the score's 10-minute refresh.
CREATE TRIGGER agents_rank_insert_notice AFTER INSERT ON "agents"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('trust', 'id');
CREATE TRIGGER agents_rank_update_notice AFTER UPDATE OF "tier", "verified_at", "created_at" ON "agents"
  FOR EACH ROW WHEN (OLD."tier" IS DISTINCT FROM NEW."tier" OR (OLD."verified_at" IS NULL) <> (NEW."verified_at" IS NULL)
    OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION vs_change_notice('trust', 'id');
CREATE TRIGGER agents_rank_delete_notice AFTER DELETE ON "agents"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('trust', 'id');
