-- DropIndex
DROP INDEX "jobs_status_created_at_idx";

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "bid_count" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "jobs_status_created_at_id_idx" ON "jobs"("status", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "jobs_created_at_id_idx" ON "jobs"("created_at" DESC, "id" DESC);

-- Hand-written: change notices for the job list's cache (server/jobs/list-jobs.ts).
CREATE TRIGGER jobs_change_notice AFTER INSERT OR UPDATE OR DELETE ON "jobs"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('job', 'id');
CREATE TRIGGER job_bids_change_notice AFTER INSERT OR UPDATE OR DELETE ON "job_bids"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('job', 'job_id');
