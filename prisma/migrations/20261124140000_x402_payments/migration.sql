-- CreateTable
CREATE TABLE "x402_payments" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "resource" TEXT NOT NULL,
    "payer" TEXT NOT NULL,
    "caller_wallet" TEXT,
    "network" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "pay_to" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "nonce" TEXT NOT NULL,
    "payment_id" TEXT,
    "status" TEXT NOT NULL,
    "tx_hash" TEXT,
    "claw" BIGINT NOT NULL DEFAULT 0,
    "ref_type" TEXT,
    "ref_id" TEXT,
    "response_status" INTEGER,
    "response_body" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "settled_at" TIMESTAMPTZ(3),

    CONSTRAINT "x402_payments_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "x402_payments_caller_wallet_created_at_idx" ON "x402_payments"("caller_wallet", "created_at");

-- CreateIndex
CREATE INDEX "x402_payments_payer_created_at_idx" ON "x402_payments"("payer", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "x402_payments_asset_payer_nonce_key" ON "x402_payments"("asset", "payer", "nonce");

-- CreateIndex
CREATE UNIQUE INDEX "x402_payments_payer_payment_id_key" ON "x402_payments"("payer", "payment_id");
