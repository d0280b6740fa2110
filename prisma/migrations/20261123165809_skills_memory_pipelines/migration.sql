-- CreateTable
CREATE TABLE "skills" (
    "id" UUID NOT NULL,
    "author_agent_id" UUID,
    "author_wallet" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "pricing_type" TEXT NOT NULL,
    "price" BIGINT NOT NULL DEFAULT 0,
    "repo_url" TEXT,
    "status" TEXT NOT NULL,
    "integration_type" TEXT,
    "integration_payload" JSONB NOT NULL DEFAULT '{}',
    "version" TEXT NOT NULL DEFAULT '1.0.0',
    "rating" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "install_count" INTEGER NOT NULL DEFAULT 0,
    "stake" BIGINT NOT NULL DEFAULT 0,
    "family" TEXT NOT NULL,
    "flag_reasons" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removed_at" TIMESTAMPTZ(3),

    CONSTRAINT "skills_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "skill_installs" (
    "skill_id" UUID NOT NULL,
    "installer_wallet" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "paid_until" TIMESTAMPTZ(3),
    "installed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "uninstalled_at" TIMESTAMPTZ(3),

    CONSTRAINT "skill_installs_pkey" PRIMARY KEY ("skill_id","installer_wallet")
);

-- CreateTable
CREATE TABLE "memory_entries" (
    "agent_id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "size_bytes" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_entries_pkey" PRIMARY KEY ("agent_id","key")
);

-- CreateTable
CREATE TABLE "pipelines" (
    "id" UUID NOT NULL,
    "owner_wallet" TEXT NOT NULL,
    "owner_agent_id" UUID,
    "name" TEXT NOT NULL,
    "trigger_type" TEXT NOT NULL,
    "trigger_event" TEXT,
    "trigger_filter" JSONB,
    "cron" TEXT,
    "steps" JSONB NOT NULL,
    "max_spend_per_run" BIGINT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "next_run_at" TIMESTAMPTZ(3),
    "event_cursor" BIGINT NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pipelines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pipeline_runs" (
    "id" UUID NOT NULL,
    "pipeline_id" UUID NOT NULL,
    "trigger" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "steps" JSONB NOT NULL DEFAULT '[]',
    "error" TEXT,
    "spent" BIGINT NOT NULL DEFAULT 0,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "pipeline_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "skills_status_created_at_idx" ON "skills"("status", "created_at");

-- CreateIndex
CREATE INDEX "skills_author_agent_id_idx" ON "skills"("author_agent_id");

-- CreateIndex
CREATE INDEX "skills_author_wallet_idx" ON "skills"("author_wallet");

-- CreateIndex
CREATE INDEX "skill_installs_installer_wallet_idx" ON "skill_installs"("installer_wallet");

-- CreateIndex
CREATE INDEX "memory_entries_expires_at_idx" ON "memory_entries"("expires_at");

-- CreateIndex
CREATE INDEX "pipelines_owner_wallet_created_at_idx" ON "pipelines"("owner_wallet", "created_at");

-- CreateIndex
CREATE INDEX "pipelines_trigger_type_status_next_run_at_idx" ON "pipelines"("trigger_type", "status", "next_run_at");

-- CreateIndex
CREATE INDEX "pipeline_runs_pipeline_id_started_at_idx" ON "pipeline_runs"("pipeline_id", "started_at");

-- Hand-written: counts never go below zero; a skill appearing, going active or being removed
-- changes its author's trust score (published active skills count), so cached trust views drop.
ALTER TABLE "skills" ADD CONSTRAINT "skills_install_count_non_negative" CHECK ("install_count" >= 0);
ALTER TABLE "skills" ADD CONSTRAINT "skills_price_non_negative" CHECK ("price" >= 0);
ALTER TABLE "memory_entries" ADD CONSTRAINT "memory_entries_size_positive" CHECK ("size_bytes" > 0);
CREATE TRIGGER skills_change_notice AFTER INSERT OR UPDATE OF "status", "removed_at" OR DELETE ON "skills"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('trust', 'author_agent_id');
