-- Change notices reach an instance through one listening connection (server/core/db/open.ts). PostgreSQL
-- wakes every listening backend of the database at each commit that notifies, whatever the channel, so when
-- every pooled connection listened (to hear its own changes before its statement returned), a commit woke 11
-- backends per process (22 with two workers), and each sent the notice down its socket.
--
-- A session that sets vs.own_notices (the service's pooled sessions) gets its own cache notices as a NOTICE
-- message with the statement's answer, `vs_change {"kind": ..., "id": ...}`; the client applies them once its
-- transaction has ended (ReadyForQuery), before the statement's caller resumes: the read-your-writes rule of
-- server/core/changes.ts with no listening. Other sessions (psql, scripts) get nothing extra.
CREATE OR REPLACE FUNCTION vs_change_notice() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  subject jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
  notice text := json_build_object('kind', TG_ARGV[0], 'id', subject ->> TG_ARGV[1])::text;
BEGIN
  PERFORM pg_notify('vs_' || lower(current_schema()), notice);
  IF current_setting('vs.own_notices', true) = 'on' THEN
    RAISE NOTICE 'vs_change %', notice;
  END IF;
  RETURN NULL;
END $$;

-- Event wake-ups (kind event) carry the event's name, without converting the whole row (payload included)
-- to JSON; no NOTICE: the instance that writes an event wakes its own readers (server/events/emit.ts).
CREATE OR REPLACE FUNCTION vs_event_notice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vs_' || lower(current_schema()), json_build_object('kind', 'event', 'id', NEW."name")::text);
  RETURN NULL;
END $$;

DROP TRIGGER events_change_notice ON "events";
CREATE TRIGGER events_change_notice AFTER INSERT ON "events"
  FOR EACH ROW EXECUTE FUNCTION vs_event_notice();
