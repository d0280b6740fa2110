-- CreateTable
CREATE TABLE "scheduled_runs" (
    "job_id" TEXT NOT NULL,
    "period" BIGINT NOT NULL,
    "instance" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "scheduled_runs_pkey" PRIMARY KEY ("job_id","period")
);

-- CreateIndex
CREATE INDEX "scheduled_runs_started_at_idx" ON "scheduled_runs"("started_at");
