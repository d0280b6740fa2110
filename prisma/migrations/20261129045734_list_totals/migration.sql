-- CreateIndex
CREATE INDEX "skills_status_created_at_id_idx" ON "skills"("status", "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "skills_status_rating_install_count_created_at_id_idx" ON "skills"("status", "rating" DESC, "install_count" DESC, "created_at" DESC, "id");

-- CreateIndex
CREATE INDEX "signals_created_at_id_idx" ON "signals"("created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "signals_status_created_at_id_idx" ON "signals"("status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "signals_confidence_created_at_id_idx" ON "signals"("confidence" DESC, "created_at" DESC, "id" DESC);

-- Hand-written: the order of GET /api/v1/signals?sort=most_staked (an expression schema.prisma cannot hold).
CREATE INDEX "signals_most_staked_idx" ON "signals"(("stake" + "agree_total" + "disagree_total") DESC, "created_at" DESC, "id" DESC);

-- The job, signal and skill lists' totals (server/core/db/list-totals.ts): counters in platform_counts per
-- job status ('jobs:<status>'), per signal type and status ('signals:<type>:<status>') and per category and
-- pricing type of the listed skills ('skills:<category>:<pricing type>': active, not removed, not hidden), so
-- a list's total is a sum of a few counters, never a count of the table (100,000 jobs: 9-16 ms per request;
-- 100,000 signals: 12-50 ms; 10,000 skills: 6.6 ms). New and deleted rows count with one delta per statement
-- and key (transition tables); a changed row with a delta for its old key and one for its new, from a row
-- trigger that runs only when what it counts by changed: a transition-table trigger cannot name columns,
-- and would run on every bid, stake and install.
CREATE OR REPLACE FUNCTION vs_list_count_key(tab text, r record) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF tab = 'jobs' THEN
    RETURN 'jobs:' || r.status;
  ELSIF tab = 'signals' THEN
    RETURN 'signals:' || r.signal_type || ':' || r.status;
  ELSIF r.status = 'active' AND r.removed_at IS NULL AND r.hidden_at IS NULL THEN
    RETURN 'skills:' || r.category || ':' || r.pricing_type;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION vs_count_list_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  key text;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    key := vs_list_count_key(TG_TABLE_NAME, OLD);
    IF key IS NOT NULL THEN INSERT INTO platform_counts (name, n) VALUES (key, -1); END IF;
    key := vs_list_count_key(TG_TABLE_NAME, NEW);
    IF key IS NOT NULL THEN INSERT INTO platform_counts (name, n) VALUES (key, 1); END IF;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO platform_counts (name, n)
    SELECT k, count(*) FROM (SELECT vs_list_count_key(TG_TABLE_NAME, r) AS k FROM vs_new r) c WHERE k IS NOT NULL GROUP BY k;
  ELSE
    INSERT INTO platform_counts (name, n)
    SELECT k, -count(*) FROM (SELECT vs_list_count_key(TG_TABLE_NAME, r) AS k FROM vs_old r) c WHERE k IS NOT NULL GROUP BY k;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER jobs_count_ins AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_list_rows();
CREATE TRIGGER jobs_count_upd AFTER UPDATE OF "status" ON "jobs"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION vs_count_list_rows();
CREATE TRIGGER jobs_count_del AFTER DELETE ON "jobs" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_list_rows();
CREATE TRIGGER signals_count_ins AFTER INSERT ON "signals" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_list_rows();
CREATE TRIGGER signals_count_upd AFTER UPDATE OF "status", "signal_type" ON "signals"
  FOR EACH ROW WHEN ((OLD.status, OLD.signal_type) IS DISTINCT FROM (NEW.status, NEW.signal_type))
  EXECUTE FUNCTION vs_count_list_rows();
CREATE TRIGGER signals_count_del AFTER DELETE ON "signals" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_list_rows();
CREATE TRIGGER skills_count_ins AFTER INSERT ON "skills" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_list_rows();
CREATE TRIGGER skills_count_upd AFTER UPDATE OF "status", "removed_at", "hidden_at", "category", "pricing_type" ON "skills"
  FOR EACH ROW WHEN ((OLD.status, OLD.removed_at IS NULL, OLD.hidden_at IS NULL, OLD.category, OLD.pricing_type)
    IS DISTINCT FROM (NEW.status, NEW.removed_at IS NULL, NEW.hidden_at IS NULL, NEW.category, NEW.pricing_type))
  EXECUTE FUNCTION vs_count_list_rows();
CREATE TRIGGER skills_count_del AFTER DELETE ON "skills" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_list_rows();

INSERT INTO "platform_counts" ("name", "n")
SELECT k, count(*) FROM (SELECT vs_list_count_key('jobs', r) AS k FROM "jobs" r
  UNION ALL SELECT vs_list_count_key('signals', r) FROM "signals" r
  UNION ALL SELECT vs_list_count_key('skills', r) FROM "skills" r) c
WHERE k IS NOT NULL GROUP BY k;

-- The indexes the new ones replace go last: dropping an index locks its table against reads until the
-- migration commits, so the builds and the counts above run before that lock is taken.
DROP INDEX "skills_status_created_at_idx";
DROP INDEX "signals_created_at_idx";
DROP INDEX "signals_status_created_at_idx";
