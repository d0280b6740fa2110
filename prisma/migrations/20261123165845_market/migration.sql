-- CreateTable
CREATE TABLE "jobs" (
    "id" UUID NOT NULL,
    "poster_wallet" TEXT NOT NULL,
    "poster_agent_id" UUID,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "required_skill" TEXT,
    "bounty" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_bid_id" UUID,
    "result" JSONB,
    "fee" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "accepted_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "job_bids" (
    "id" UUID NOT NULL,
    "job_id" UUID NOT NULL,
    "bidder_wallet" TEXT NOT NULL,
    "bidder_agent_id" UUID,
    "bid" BIGINT NOT NULL,
    "eta_seconds" INTEGER NOT NULL,
    "proposal" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_bids_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signals" (
    "id" UUID NOT NULL,
    "publisher_wallet" TEXT NOT NULL,
    "publisher_agent_id" UUID,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "signal_type" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "stake" BIGINT NOT NULL,
    "agree_total" BIGINT NOT NULL DEFAULT 0,
    "disagree_total" BIGINT NOT NULL DEFAULT 0,
    "stake_count" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'open',
    "outcome" TEXT,
    "fee" BIGINT,
    "resolved_by" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signal_stakes" (
    "id" UUID NOT NULL,
    "signal_id" UUID NOT NULL,
    "staker_wallet" TEXT NOT NULL,
    "stance" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "payout" BIGINT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signal_stakes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referrals" (
    "wallet" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "referrer_wallet" TEXT,
    "registered_at" TIMESTAMPTZ(3),
    "fees_generated" BIGINT NOT NULL DEFAULT 0,
    "bonus_accrued_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "referrals_pkey" PRIMARY KEY ("wallet")
);

-- CreateTable
CREATE TABLE "referral_earnings" (
    "id" UUID NOT NULL,
    "referrer_wallet" TEXT NOT NULL,
    "referred_wallet" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "ref_type" TEXT,
    "ref_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "paid_at" TIMESTAMPTZ(3),

    CONSTRAINT "referral_earnings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "jobs_status_created_at_idx" ON "jobs"("status", "created_at");

-- CreateIndex
CREATE INDEX "jobs_poster_wallet_created_at_idx" ON "jobs"("poster_wallet", "created_at");

-- CreateIndex
CREATE INDEX "jobs_expires_at_idx" ON "jobs"("expires_at");

-- CreateIndex
CREATE INDEX "job_bids_bidder_wallet_idx" ON "job_bids"("bidder_wallet");

-- CreateIndex
CREATE UNIQUE INDEX "job_bids_job_id_bidder_wallet_key" ON "job_bids"("job_id", "bidder_wallet");

-- CreateIndex
CREATE INDEX "signals_created_at_idx" ON "signals"("created_at");

-- CreateIndex
CREATE INDEX "signals_publisher_wallet_created_at_idx" ON "signals"("publisher_wallet", "created_at");

-- CreateIndex
CREATE INDEX "signals_status_created_at_idx" ON "signals"("status", "created_at");

-- CreateIndex
CREATE INDEX "signal_stakes_signal_id_stance_idx" ON "signal_stakes"("signal_id", "stance");

-- CreateIndex
CREATE INDEX "signal_stakes_staker_wallet_idx" ON "signal_stakes"("staker_wallet");

-- CreateIndex
CREATE UNIQUE INDEX "referrals_code_key" ON "referrals"("code");

-- CreateIndex
CREATE INDEX "referrals_referrer_wallet_idx" ON "referrals"("referrer_wallet");

-- CreateIndex
CREATE INDEX "referral_earnings_referrer_wallet_paid_at_idx" ON "referral_earnings"("referrer_wallet", "paid_at");

-- CreateIndex
CREATE INDEX "referral_earnings_paid_at_created_at_idx" ON "referral_earnings"("paid_at", "created_at");

-- Hand-written: the market's invariants.
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_status_check" CHECK ("status" IN ('open', 'bid', 'executing', 'completed', 'expired'));
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_bounty_positive" CHECK ("bounty" > 0);
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_accepted_bid_present" CHECK (("status" IN ('executing', 'completed')) = ("accepted_bid_id" IS NOT NULL));
ALTER TABLE "job_bids" ADD CONSTRAINT "job_bids_job_fkey" FOREIGN KEY ("job_id") REFERENCES "jobs"("id");
ALTER TABLE "job_bids" ADD CONSTRAINT "job_bids_status_check" CHECK ("status" IN ('pending', 'accepted', 'rejected'));
ALTER TABLE "job_bids" ADD CONSTRAINT "job_bids_bid_positive" CHECK ("bid" > 0 AND "eta_seconds" > 0);
ALTER TABLE "signals" ADD CONSTRAINT "signals_status_check" CHECK ("status" IN ('open', 'resolved'));
ALTER TABLE "signals" ADD CONSTRAINT "signals_outcome_check" CHECK (("status" = 'resolved') = ("outcome" IS NOT NULL) AND ("outcome" IS NULL OR "outcome" IN ('correct', 'incorrect', 'expired')));
ALTER TABLE "signals" ADD CONSTRAINT "signals_type_check" CHECK ("signal_type" IN ('long', 'short', 'alert', 'insight', 'neutral'));
ALTER TABLE "signals" ADD CONSTRAINT "signals_amounts_check" CHECK ("stake" >= 1000000 AND "agree_total" >= 0 AND "disagree_total" >= 0);
ALTER TABLE "signal_stakes" ADD CONSTRAINT "signal_stakes_signal_fkey" FOREIGN KEY ("signal_id") REFERENCES "signals"("id");
ALTER TABLE "signal_stakes" ADD CONSTRAINT "signal_stakes_stance_check" CHECK ("stance" IN ('agree', 'disagree') AND "amount" >= 1000000);
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_code_format" CHECK ("code" ~ '^[A-Z0-9]{8}$');
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_not_self" CHECK ("referrer_wallet" IS NULL OR "referrer_wallet" <> "wallet");
ALTER TABLE "referral_earnings" ADD CONSTRAINT "referral_earnings_kind_check" CHECK ("kind" IN ('signup_bonus', 'fee_share') AND "amount" > 0);
-- the signup bonus is earned once per referred wallet, ever
CREATE UNIQUE INDEX "referral_earnings_one_bonus" ON "referral_earnings" ("referred_wallet") WHERE "kind" = 'signup_bonus';
-- one stake per wallet and signal: a second stake on the same side adds to it, the other side is refused
CREATE UNIQUE INDEX "signal_stakes_one_per_wallet" ON "signal_stakes" ("signal_id", "staker_wallet");
