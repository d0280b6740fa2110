-- CreateTable
CREATE TABLE "agent_stats" (
    "agent_id" UUID NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "published_skills" INTEGER NOT NULL DEFAULT 0,
    "received" INTEGER NOT NULL DEFAULT 0,
    "endorsement_count" INTEGER NOT NULL DEFAULT 0,
    "connections" INTEGER NOT NULL DEFAULT 0,
    "age_months" INTEGER NOT NULL DEFAULT 0,
    "trust_score" INTEGER NOT NULL DEFAULT 0,
    "propagated_trust" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "agent_created_at" TIMESTAMPTZ(3) NOT NULL,
    "refreshed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_stats_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "agent_stats_dirty" (
    "id" BIGSERIAL NOT NULL,
    "agent_id" UUID NOT NULL,
    "marked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_stats_dirty_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "platform_counts" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "platform_counts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_stats_trust_score_agent_created_at_agent_id_idx" ON "agent_stats"("trust_score" DESC, "agent_created_at", "agent_id");

-- CreateIndex
CREATE INDEX "agent_stats_dirty_agent_id_idx" ON "agent_stats_dirty"("agent_id");

-- CreateIndex
CREATE INDEX "platform_counts_name_idx" ON "platform_counts"("name");

-- CreateIndex
CREATE INDEX "agents_tier_created_at_idx" ON "agents"("tier", "created_at");

-- CreateIndex
CREATE INDEX "agents_is_callable_created_at_idx" ON "agents"("is_callable", "created_at");


-- Hand-written: the triggers that keep agent_stats and platform_counts exact (docs/architecture.md,
-- "Maintained counts"), the trigram indexes of agent search and the indexes of a profile's activity.

-- An agent's trust counts change: mark it for the refresh-agent-stats job. TG_ARGV names the uuid
-- columns of the row that are agents whose counts the change touches.
CREATE OR REPLACE FUNCTION vs_mark_stats_dirty() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  subject jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
  col text;
BEGIN
  FOREACH col IN ARRAY TG_ARGV LOOP
    IF subject ->> col IS NOT NULL THEN
      INSERT INTO agent_stats_dirty (agent_id) VALUES ((subject ->> col)::uuid);
    END IF;
  END LOOP;
  -- a skill or edge moved from one agent to another: the old one changed too
  IF TG_OP = 'UPDATE' THEN
    subject := to_jsonb(OLD);
    FOREACH col IN ARRAY TG_ARGV LOOP
      IF subject ->> col IS NOT NULL AND subject ->> col IS DISTINCT FROM to_jsonb(NEW) ->> col THEN
        INSERT INTO agent_stats_dirty (agent_id) VALUES ((subject ->> col)::uuid);
      END IF;
    END LOOP;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER agents_stats_dirty AFTER INSERT OR UPDATE OF "tier", "verified_at", "created_at" ON "agents"
  FOR EACH ROW EXECUTE FUNCTION vs_mark_stats_dirty('id');
CREATE TRIGGER endorsements_stats_dirty AFTER INSERT OR UPDATE OR DELETE ON "endorsements"
  FOR EACH ROW EXECUTE FUNCTION vs_mark_stats_dirty('subject_agent_id');
CREATE TRIGGER attestations_stats_dirty AFTER INSERT OR UPDATE OR DELETE ON "attestations"
  FOR EACH ROW EXECUTE FUNCTION vs_mark_stats_dirty('subject_agent_id');
CREATE TRIGGER skills_stats_dirty AFTER INSERT OR UPDATE OF "status", "removed_at", "hidden_at", "author_agent_id" OR DELETE ON "skills"
  FOR EACH ROW EXECUTE FUNCTION vs_mark_stats_dirty('author_agent_id');
-- connections count distinct neighbours: only an edge appearing or going changes them
CREATE TRIGGER trust_edges_stats_dirty AFTER INSERT OR DELETE ON "trust_edges"
  FOR EACH ROW EXECUTE FUNCTION vs_mark_stats_dirty('source_agent_id', 'target_agent_id');

-- Every existing agent is computed by the first run of the job.
INSERT INTO "agent_stats_dirty" ("agent_id") SELECT "id" FROM "agents";

-- Platform counters: one delta row per statement that changes a count (transition tables), so
-- concurrent writers never wait on one counter row. TG_ARGV: the counter's name and the predicate
-- a row must meet to count.
CREATE OR REPLACE FUNCTION vs_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    EXECUTE format('SELECT count(*) FROM vs_new WHERE %s', TG_ARGV[1]) INTO delta;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format('SELECT -count(*) FROM vs_old WHERE %s', TG_ARGV[1]) INTO delta;
  ELSE
    EXECUTE format('SELECT (SELECT count(*) FROM vs_new WHERE %1$s) - (SELECT count(*) FROM vs_old WHERE %1$s)', TG_ARGV[1]) INTO delta;
  END IF;
  IF delta <> 0 THEN
    INSERT INTO platform_counts (name, n) VALUES (TG_ARGV[0], delta);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER agents_count_ins AFTER INSERT ON "agents" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('agents', 'true');
CREATE TRIGGER agents_count_del AFTER DELETE ON "agents" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('agents', 'true');
CREATE TRIGGER callable_count_ins AFTER INSERT ON "agents" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('callable_agents', 'is_callable');
CREATE TRIGGER callable_count_upd AFTER UPDATE ON "agents" REFERENCING OLD TABLE AS vs_old NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('callable_agents', 'is_callable');
CREATE TRIGGER callable_count_del AFTER DELETE ON "agents" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('callable_agents', 'is_callable');
-- A wallet counts once its first agent exists (two first agents of one wallet created at once may
-- count it twice; the compact-platform-counts job recounts wallets exactly every minute).
CREATE TRIGGER wallets_count_ins AFTER INSERT ON "agents" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('wallets',
    'id = (SELECT a.id FROM agents a WHERE a.owner_wallet = vs_new.owner_wallet ORDER BY a.created_at, a.id LIMIT 1)');
CREATE TRIGGER wallets_count_del AFTER DELETE ON "agents" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('wallets',
    'NOT EXISTS (SELECT 1 FROM agents a WHERE a.owner_wallet = vs_old.owner_wallet)');
CREATE TRIGGER endorsements_count_ins AFTER INSERT ON "endorsements" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('endorsements', 'status = ''active''');
CREATE TRIGGER endorsements_count_upd AFTER UPDATE ON "endorsements" REFERENCING OLD TABLE AS vs_old NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('endorsements', 'status = ''active''');
CREATE TRIGGER endorsements_count_del AFTER DELETE ON "endorsements" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('endorsements', 'status = ''active''');
CREATE TRIGGER attestations_count_ins AFTER INSERT ON "attestations" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('attestations', 'true');
CREATE TRIGGER attestations_count_del AFTER DELETE ON "attestations" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('attestations', 'true');
CREATE TRIGGER invocations_count_ins AFTER INSERT ON "invocations" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('invocations', 'status = ''success''');
CREATE TRIGGER invocations_count_upd AFTER UPDATE ON "invocations" REFERENCING OLD TABLE AS vs_old NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('invocations', 'status = ''success''');
CREATE TRIGGER invocations_count_del AFTER DELETE ON "invocations" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('invocations', 'status = ''success''');
CREATE TRIGGER smart_money_wallets_count_ins AFTER INSERT ON "smart_money_wallets" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('wallets_tracked', 'true');
CREATE TRIGGER smart_money_wallets_count_del AFTER DELETE ON "smart_money_wallets" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('wallets_tracked', 'true');
CREATE TRIGGER events_count_ins AFTER INSERT ON "events" REFERENCING NEW TABLE AS vs_new
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('events', 'true');
CREATE TRIGGER events_count_del AFTER DELETE ON "events" REFERENCING OLD TABLE AS vs_old
  FOR EACH STATEMENT EXECUTE FUNCTION vs_count_rows('events', 'true');

INSERT INTO "platform_counts" ("name", "n")
SELECT 'agents', count(*) FROM "agents"
UNION ALL SELECT 'callable_agents', count(*) FROM "agents" WHERE "is_callable"
UNION ALL SELECT 'wallets', count(DISTINCT "owner_wallet") FROM "agents"
UNION ALL SELECT 'endorsements', count(*) FROM "endorsements" WHERE "status" = 'active'
UNION ALL SELECT 'attestations', count(*) FROM "attestations"
UNION ALL SELECT 'invocations', count(*) FROM "invocations" WHERE "status" = 'success'
UNION ALL SELECT 'wallets_tracked', count(*) FROM "smart_money_wallets"
UNION ALL SELECT 'events', count(*) FROM "events";

-- Agent search (server/directory/list-agents.ts): substring and prefix matches on name (any case)
-- and handle walk trigram indexes. The extension lives in public, shared by every schema. No pending
-- list (fastupdate off): a read never scans unmerged entries (measured: 17 ms instead of 0.3 ms).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE INDEX "agents_name_trgm_idx" ON "agents" USING gin ("name" public.gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "agents_handle_trgm_idx" ON "agents" USING gin ("handle" public.gin_trgm_ops) WITH (fastupdate = off);

-- A profile's recent activity: the events naming the agent in any of three fields.
CREATE INDEX "events_agent_id_idx" ON "events" (("data" ->> 'agent_id'), "id") WHERE "data" ->> 'agent_id' IS NOT NULL;
CREATE INDEX "events_target_agent_id_idx" ON "events" (("data" ->> 'target_agent_id'), "id") WHERE "data" ->> 'target_agent_id' IS NOT NULL;
CREATE INDEX "events_caller_agent_id_idx" ON "events" (("data" ->> 'caller_agent_id'), "id") WHERE "data" ->> 'caller_agent_id' IS NOT NULL;

-- The graph's hops (server/trust/connection-graph.ts): a node's strongest edges each way, read from
-- the index alone (INCLUDE, which Prisma's schema cannot declare).
CREATE INDEX "trust_edges_source_strength_idx" ON "trust_edges" ("source_agent_id", "strength" DESC) INCLUDE ("target_agent_id", "type");
CREATE INDEX "trust_edges_target_strength_idx" ON "trust_edges" ("target_agent_id", "strength" DESC) INCLUDE ("source_agent_id", "type");
