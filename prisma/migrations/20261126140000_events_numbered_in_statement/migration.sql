-- The free calls' statement numbers its agent.invoked events itself, under the events' order lock, as it
-- writes them (server/invoke/invocation-rows.ts, invokedEvents): a row inserted with its final id queues no
-- renumbering at commit. Rows inserted with a temporary (negative) id are renumbered at commit as before.
DROP TRIGGER events_commit_order ON "events";
CREATE CONSTRAINT TRIGGER events_commit_order AFTER INSERT ON "events"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.id < 0) EXECUTE FUNCTION vs_event_commit_order();
