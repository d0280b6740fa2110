-- Hand-written (expressions Prisma's schema cannot declare): the job list's filters (server/jobs/list-jobs.ts).
-- The words filter matches a lowercased copy of title and description with LIKE, which costs a
-- fraction of two ILIKEs per row; the skill filter (any case) walks an index with the status.
ALTER TABLE "jobs" ADD COLUMN "search_text" TEXT GENERATED ALWAYS AS (lower("title" || E'\n' || "description")) STORED;

CREATE INDEX "jobs_status_skill_created_at_id_idx" ON "jobs"("status", lower("required_skill"), "created_at" DESC, "id" DESC);
CREATE INDEX "jobs_skill_created_at_id_idx" ON "jobs"(lower("required_skill"), "created_at" DESC, "id" DESC);
