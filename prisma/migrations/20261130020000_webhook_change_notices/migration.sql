-- Hand-written: change notices of kind `webhook` (server/core/changes.ts). The webhook worker fans out at once only
-- the events some active webhook subscribes to (server/webhooks/deliver-webhooks.ts): it keeps the names subscribed,
-- dropped when a webhook is created, deleted, paused or resumed, or its event list changes. A delivery's bookkeeping
-- (failed_attempts, last delivery) changes none of that and sends no notice.
CREATE TRIGGER webhooks_change_notice_ins_del AFTER INSERT OR DELETE ON "webhooks"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('webhook', 'id');
CREATE TRIGGER webhooks_change_notice_upd AFTER UPDATE OF "is_active", "events" ON "webhooks"
  FOR EACH ROW WHEN (OLD."is_active" IS DISTINCT FROM NEW."is_active" OR OLD."events" IS DISTINCT FROM NEW."events")
  EXECUTE FUNCTION vs_change_notice('webhook', 'id');
