-- CreateTable
CREATE TABLE "ledger_accounts" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "balance" BIGINT NOT NULL DEFAULT 0,
    "allow_negative" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_transactions" (
    "id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "ref_type" TEXT,
    "ref_id" TEXT,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_postings" (
    "id" BIGSERIAL NOT NULL,
    "transaction_id" UUID NOT NULL,
    "account_id" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_postings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_spend" (
    "wallet" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "spent" BIGINT NOT NULL DEFAULT 0,
    "spend_limit" BIGINT,

    CONSTRAINT "daily_spend_pkey" PRIMARY KEY ("wallet","day")
);

-- CreateTable
CREATE TABLE "invocations" (
    "id" UUID NOT NULL,
    "caller_wallet" TEXT NOT NULL,
    "caller_agent_id" UUID,
    "target_agent_id" UUID NOT NULL,
    "target_wallet" TEXT NOT NULL,
    "fee" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "http_status" INTEGER,
    "duration_ms" INTEGER,
    "error" TEXT,
    "family" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "invocations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ledger_transactions_idempotency_key_key" ON "ledger_transactions"("idempotency_key");

-- CreateIndex
CREATE INDEX "ledger_transactions_ref_type_ref_id_idx" ON "ledger_transactions"("ref_type", "ref_id");

-- CreateIndex
CREATE INDEX "ledger_postings_account_id_id_idx" ON "ledger_postings"("account_id", "id");

-- CreateIndex
CREATE INDEX "ledger_postings_transaction_id_idx" ON "ledger_postings"("transaction_id");

-- CreateIndex
CREATE INDEX "invocations_caller_wallet_created_at_idx" ON "invocations"("caller_wallet", "created_at");

-- CreateIndex
CREATE INDEX "invocations_target_agent_id_created_at_idx" ON "invocations"("target_agent_id", "created_at");

-- CreateIndex
CREATE INDEX "invocations_status_created_at_idx" ON "invocations"("status", "created_at");

-- Money invariants enforced by the database itself, atomically under concurrency.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_no_overdraft" CHECK ("allow_negative" OR "balance" >= 0);
ALTER TABLE "daily_spend" ADD CONSTRAINT "daily_spend_within_limit" CHECK ("spend_limit" IS NULL OR "spent" <= "spend_limit");
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_transaction_fkey" FOREIGN KEY ("transaction_id") REFERENCES "ledger_transactions"("id");
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_account_fkey" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id");
