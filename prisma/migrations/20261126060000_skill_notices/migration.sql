-- Skill change notices (server/core/changes.ts): a skill published, edited, hidden, shown or removed, or its
-- install count or rating moved (installs and reviews update the skill's row in the same statement), drops
-- the cached skill lists on every instance (server/http/response-cache.ts, SKILLS_CACHE).
CREATE TRIGGER skills_list_notice AFTER INSERT OR UPDATE OR DELETE ON "skills"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('skill', 'id');
