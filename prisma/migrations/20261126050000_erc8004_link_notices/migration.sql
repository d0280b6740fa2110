-- An agent's ERC-8004 link is part of its views (erc8004 on GET /api/v1/agents/{id}, the signed A2A
-- card): linking, unlinking and the indexer's unlink after a transfer send the agent's change notice,
-- so the response cache and every other cached view of that agent drop it on every instance.
CREATE TRIGGER erc8004_links_change_notice AFTER INSERT OR UPDATE OR DELETE ON "erc8004_links"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('agent', 'agent_id');
