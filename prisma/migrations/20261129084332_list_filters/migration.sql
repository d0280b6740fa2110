-- min_trust_score with tier reads agent_stats alone (server/directory/list-agents.ts): agent_stats keeps the
-- agent's tier. The indexes that read it come in the next migration, so this one, whose ADD COLUMN keeps
-- agent_stats locked against reads until it commits, stays short.

-- AlterTable
ALTER TABLE "agent_stats" ADD COLUMN     "tier" TEXT NOT NULL DEFAULT 'none';

-- Hand-written: agent_stats.tier is the agent's tier at every commit, whoever writes the row. A row's
-- counts written (the refresh job, this release's or an older one's) take the tier from the agent; a tier
-- change rewrites the row in its own transaction, so a tier filter never waits for the job.
CREATE OR REPLACE FUNCTION vs_agent_stats_tier() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.tier := coalesce((SELECT a.tier FROM agents a WHERE a.id = NEW.agent_id), 'none');
  RETURN NEW;
END $$;

CREATE TRIGGER agent_stats_tier BEFORE INSERT OR UPDATE OF "trust_score", "tier" ON "agent_stats"
  FOR EACH ROW EXECUTE FUNCTION vs_agent_stats_tier();

CREATE OR REPLACE FUNCTION vs_agent_tier_to_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE agent_stats SET tier = NEW.tier WHERE agent_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER agents_tier_to_stats AFTER UPDATE OF "tier" ON "agents"
  FOR EACH ROW WHEN (OLD.tier IS DISTINCT FROM NEW.tier) EXECUTE FUNCTION vs_agent_tier_to_stats();

-- The rows written before the column.
UPDATE "agent_stats" s SET "tier" = a."tier" FROM "agents" a WHERE a."id" = s."agent_id" AND a."tier" <> 'none';
