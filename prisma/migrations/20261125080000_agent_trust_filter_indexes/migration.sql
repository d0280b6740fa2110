-- Hand-written (not expressible in schema.prisma, like the trigram indexes): the agent lists' trust
-- filter combined with tier, is_callable or search (server/directory/list-agents.ts). The candidates
-- come from the agents' own indexes by id alone (index-only, no heap visit), and each candidate's
-- maintained score is an index-only probe of agent_stats. EXPLAIN ANALYZE at 100,000 agents
-- (tier=pro, min_trust_score=60): 221 ms before, 25-48 ms after, on a loaded 2-core machine.
CREATE INDEX "agents_tier_id_idx" ON "agents" ("tier", "id");
CREATE INDEX "agents_is_callable_id_idx" ON "agents" ("is_callable", "id");
CREATE INDEX "agent_stats_agent_id_trust_score_idx" ON "agent_stats" ("agent_id") INCLUDE ("trust_score");
