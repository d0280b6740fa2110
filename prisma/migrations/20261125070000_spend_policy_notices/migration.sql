-- The router keeps each credential's spend policy in a cache (server/credits/spend-policy.ts), so a paid call
-- does not read it from the database every time: a policy written, changed or deleted anywhere drops it on
-- every instance (change notices, migration change_notices).
CREATE TRIGGER spend_policies_change_notice AFTER INSERT OR UPDATE OR DELETE ON "spend_policies"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('spend_policy', 'credential_id');
