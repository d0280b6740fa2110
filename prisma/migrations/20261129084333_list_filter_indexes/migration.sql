-- The agent lists' filters on indexes (server/directory/list-agents.ts): min_trust_score with tier reads
-- agent_stats' (tier, trust_score, ...) index alone, and a tier or is_callable page or bounded count its
-- (column, created_at DESC, id) index alone.

-- CreateIndex
CREATE INDEX "agent_stats_tier_trust_score_agent_created_at_agent_id_idx" ON "agent_stats"("tier", "trust_score" DESC, "agent_created_at", "agent_id");

-- CreateIndex
CREATE INDEX "agents_tier_created_at_id_idx" ON "agents"("tier", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "agents_is_callable_created_at_id_idx" ON "agents"("is_callable", "created_at" DESC, "id");

-- The replaced indexes go last: dropping one locks its table against reads until the transaction ends.

-- DropIndex
DROP INDEX "agents_tier_created_at_idx";

-- DropIndex
DROP INDEX "agents_is_callable_created_at_idx";
