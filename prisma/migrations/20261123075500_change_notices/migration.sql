-- Change notices (server/core/changes.ts): after a commit touches what a cache depends on, every
-- instance listening on the schema's channel hears {"kind", "id"}. NOTIFY is transactional, so a
-- rolled-back change sends nothing, and identical notices of one transaction arrive once.
CREATE OR REPLACE FUNCTION vs_change_notice() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  subject jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
BEGIN
  PERFORM pg_notify('vs_' || lower(current_schema()),
    json_build_object('kind', TG_ARGV[0], 'id', subject ->> TG_ARGV[1])::text);
  RETURN NULL;
END $$;

CREATE TRIGGER agents_change_notice AFTER INSERT OR UPDATE OR DELETE ON "agents"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('agent', 'id');

-- Creating a credential changes no cached view; revoking or deleting one does.
CREATE TRIGGER access_tokens_change_notice AFTER UPDATE OF "revoked_at" OR DELETE ON "access_tokens"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('credential', 'id');
CREATE TRIGGER api_keys_change_notice AFTER UPDATE OF "revoked_at" OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('credential', 'id');

CREATE TRIGGER endorsements_change_notice AFTER INSERT OR UPDATE OR DELETE ON "endorsements"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('trust', 'subject_agent_id');
CREATE TRIGGER attestations_change_notice AFTER INSERT OR UPDATE OR DELETE ON "attestations"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('trust', 'subject_agent_id');

-- A connection appearing or going changes counts and the graph; a partnership edge only growing
-- stronger (every successful call) changes nothing that is cached.
CREATE TRIGGER trust_edges_change_notice AFTER INSERT OR DELETE ON "trust_edges"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('trust', 'target_agent_id');
CREATE TRIGGER trust_edges_strength_notice AFTER UPDATE ON "trust_edges"
  FOR EACH ROW WHEN (NEW."type" = 'trust') EXECUTE FUNCTION vs_change_notice('trust', 'target_agent_id');
