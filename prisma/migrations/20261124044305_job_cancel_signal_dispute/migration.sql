-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "cancelled_at" TIMESTAMPTZ(3),
ADD COLUMN     "delivery_deadline" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "signals" ADD COLUMN     "dispute_deadline" TIMESTAMPTZ(3),
ADD COLUMN     "disputed_at" TIMESTAMPTZ(3),
ADD COLUMN     "disputed_by" TEXT,
ADD COLUMN     "proposed_at" TIMESTAMPTZ(3),
ADD COLUMN     "proposed_outcome" TEXT;

-- Hand-written: the new statuses. A job may be cancelled by its poster (open or bid with no accepted bid,
-- or executing past its delivery deadline, keeping the accepted bid on record).
ALTER TABLE "jobs" DROP CONSTRAINT "jobs_status_check";
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_status_check" CHECK ("status" IN ('open', 'bid', 'executing', 'completed', 'expired', 'cancelled'));
ALTER TABLE "jobs" DROP CONSTRAINT "jobs_accepted_bid_present";
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_accepted_bid_present" CHECK (
  "status" = 'cancelled' OR ("status" IN ('executing', 'completed')) = ("accepted_bid_id" IS NOT NULL));
CREATE INDEX "jobs_executing_delivery_deadline_idx" ON "jobs"("delivery_deadline") WHERE "status" = 'executing';

-- A signal's publisher proposes an outcome (pending_resolution); a staker may dispute it (disputed).
ALTER TABLE "signals" DROP CONSTRAINT "signals_status_check";
ALTER TABLE "signals" ADD CONSTRAINT "signals_status_check" CHECK ("status" IN ('open', 'pending_resolution', 'disputed', 'resolved'));
ALTER TABLE "signals" ADD CONSTRAINT "signals_proposal_check" CHECK (
  ("status" NOT IN ('pending_resolution', 'disputed') OR ("proposed_outcome" IS NOT NULL AND "dispute_deadline" IS NOT NULL))
  AND ("proposed_outcome" IS NULL OR "proposed_outcome" IN ('correct', 'incorrect', 'expired')));
CREATE INDEX "signals_pending_dispute_deadline_idx" ON "signals"("dispute_deadline") WHERE "status" = 'pending_resolution';
