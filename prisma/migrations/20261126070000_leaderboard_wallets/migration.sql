-- The leaderboard kept per wallet (server/leaderboard/refresh-leaderboard.ts): refreshed in the background by
-- one statement, read by an index scan of `limit` rows per sort, instead of one aggregate over every agent,
-- signal, job and invocation per request (issue 21).

-- CreateTable
CREATE TABLE "leaderboard_wallets" (
    "wallet" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "signals_published" INTEGER NOT NULL,
    "signals_correct" INTEGER NOT NULL,
    "signals_incorrect" INTEGER NOT NULL,
    "jobs_completed" INTEGER NOT NULL,
    "invocations" INTEGER NOT NULL,
    "score" BIGINT NOT NULL,
    "accuracy" DOUBLE PRECISION NOT NULL,
    "decided" INTEGER NOT NULL,

    CONSTRAINT "leaderboard_wallets_pkey" PRIMARY KEY ("wallet")
);

-- CreateTable
CREATE TABLE "leaderboard_refresh" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "refreshed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "leaderboard_refresh_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "leaderboard_wallets_score_wallet_idx" ON "leaderboard_wallets"("score" DESC, "wallet");

-- CreateIndex
CREATE INDEX "leaderboard_wallets_accuracy_decided_score_wallet_idx" ON "leaderboard_wallets"("accuracy" DESC, "decided" DESC, "score" DESC, "wallet");

-- CreateIndex
CREATE INDEX "leaderboard_wallets_signals_published_score_wallet_idx" ON "leaderboard_wallets"("signals_published" DESC, "score" DESC, "wallet");

-- CreateIndex
CREATE INDEX "leaderboard_wallets_jobs_completed_score_wallet_idx" ON "leaderboard_wallets"("jobs_completed" DESC, "score" DESC, "wallet");

-- CreateIndex
CREATE INDEX "leaderboard_wallets_invocations_score_wallet_idx" ON "leaderboard_wallets"("invocations" DESC, "score" DESC, "wallet");

-- One row.
ALTER TABLE "leaderboard_refresh" ADD CONSTRAINT "leaderboard_refresh_one_row" CHECK ("id");
