-- The propagated score (server/trust/propagated-trust.ts) is recomputed when its inputs change: trust edges (the
-- `trust` notices of migration change_notices) and each agent's restart weight (TRUST_SEED_WEIGHT_SQL: verified,
-- tier, a month of age). It used to listen to every `agent` notice, so a bio edit re-ran PageRank over the whole
-- graph within a minute (seconds of PGlite's one connection at 100,000 agents). An agent change now publishes a
-- `trust` notice only when it can move a score:
--   - a new agent that starts with a restart weight (a tier, a verification, or created over 30 days ago by an
--     import); a new agent with none is a node with no edges and no weight, whose score is 0 without a run;
--   - a change of tier, verified_at or created_at;
--   - a deletion (its edges go with it, and those send their own notices too).
-- Crossing the month of age with no change is the score's 10-minute refresh, as before.
CREATE TRIGGER agents_rank_insert_notice AFTER INSERT ON "agents"
  FOR EACH ROW WHEN (NEW."tier" <> 'none' OR NEW."verified_at" IS NOT NULL OR NEW."created_at" < now() - interval '30 days')
  EXECUTE FUNCTION vs_change_notice('trust', 'id');
CREATE TRIGGER agents_rank_update_notice AFTER UPDATE OF "tier", "verified_at", "created_at" ON "agents"
  FOR EACH ROW WHEN (OLD."tier" IS DISTINCT FROM NEW."tier" OR (OLD."verified_at" IS NULL) <> (NEW."verified_at" IS NULL)
    OR OLD."created_at" IS DISTINCT FROM NEW."created_at")
  EXECUTE FUNCTION vs_change_notice('trust', 'id');
CREATE TRIGGER agents_rank_delete_notice AFTER DELETE ON "agents"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('trust', 'id');
