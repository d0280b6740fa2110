-- CreateTable
CREATE TABLE "swap_executions" (
    "id" UUID NOT NULL,
    "wallet" TEXT NOT NULL,
    "agent_id" UUID,
    "strategy_id" UUID,
    "tx_hash" TEXT NOT NULL,
    "router" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'submitted',
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "swap_executions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "strategies" (
    "id" UUID NOT NULL,
    "owner_wallet" TEXT NOT NULL,
    "owner_agent_id" UUID,
    "name" TEXT NOT NULL,
    "strategy_type" TEXT NOT NULL,
    "token_in" TEXT NOT NULL,
    "token_out" TEXT NOT NULL,
    "amount_in_raw" TEXT NOT NULL,
    "interval_seconds" INTEGER NOT NULL,
    "max_executions" INTEGER,
    "slippage_bps" INTEGER NOT NULL,
    "trigger_price" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "executions" INTEGER NOT NULL DEFAULT 0,
    "next_run_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "strategies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "strategy_executions" (
    "id" UUID NOT NULL,
    "strategy_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "quote" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "strategy_executions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "smart_money_wallets" (
    "id" UUID NOT NULL,
    "wallet_address" TEXT NOT NULL,
    "label" TEXT,
    "added_by" TEXT,
    "win_rate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "total_volume_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "confidence" TEXT NOT NULL DEFAULT 'low',
    "last_active" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "smart_money_wallets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "smart_money_events" (
    "id" UUID NOT NULL,
    "wallet_address" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "token_in" TEXT,
    "token_out" TEXT,
    "amount_in_raw" TEXT,
    "amount_out_raw" TEXT,
    "amount_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "usd_method" TEXT NOT NULL DEFAULT 'none',
    "confidence" TEXT NOT NULL DEFAULT 'low',
    "dex" TEXT,
    "tx_hash" TEXT NOT NULL,
    "log_index" INTEGER NOT NULL,
    "block_number" BIGINT NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "smart_money_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "smart_money_alerts" (
    "id" UUID NOT NULL,
    "event_id" UUID,
    "type" TEXT NOT NULL,
    "wallet_address" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "amount_usd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "action" TEXT NOT NULL DEFAULT 'swap',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "smart_money_alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "smart_money_subscriptions" (
    "wallet" TEXT NOT NULL,
    "plan" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "smart_money_subscriptions_pkey" PRIMARY KEY ("wallet")
);

-- CreateTable
CREATE TABLE "smart_money_cursors" (
    "id" TEXT NOT NULL,
    "last_block" BIGINT NOT NULL,

    CONSTRAINT "smart_money_cursors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "swap_executions_tx_hash_key" ON "swap_executions"("tx_hash");

-- CreateIndex
CREATE INDEX "swap_executions_wallet_created_at_idx" ON "swap_executions"("wallet", "created_at");

-- CreateIndex
CREATE INDEX "strategies_owner_wallet_created_at_idx" ON "strategies"("owner_wallet", "created_at");

-- CreateIndex
CREATE INDEX "strategies_status_next_run_at_idx" ON "strategies"("status", "next_run_at");

-- CreateIndex
CREATE INDEX "strategy_executions_strategy_id_created_at_idx" ON "strategy_executions"("strategy_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "smart_money_wallets_wallet_address_key" ON "smart_money_wallets"("wallet_address");

-- CreateIndex
CREATE INDEX "smart_money_events_wallet_address_timestamp_idx" ON "smart_money_events"("wallet_address", "timestamp");

-- CreateIndex
CREATE INDEX "smart_money_events_timestamp_idx" ON "smart_money_events"("timestamp");

-- CreateIndex
CREATE UNIQUE INDEX "smart_money_events_tx_hash_log_index_key" ON "smart_money_events"("tx_hash", "log_index");

-- CreateIndex
CREATE INDEX "smart_money_alerts_created_at_idx" ON "smart_money_alerts"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "smart_money_alerts_event_id_type_key" ON "smart_money_alerts"("event_id", "type");

-- Hand-written checks
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_status_check" CHECK ("status" IN ('active', 'paused', 'cancelled', 'completed'));
ALTER TABLE "strategies" ADD CONSTRAINT "strategies_type_check" CHECK ("strategy_type" IN ('dca', 'limit', 'stop-loss', 'take-profit'));
ALTER TABLE "smart_money_alerts" ADD CONSTRAINT "smart_money_alerts_type_check" CHECK ("type" IN ('large_swap', 'unusual_volume', 'new_position', 'exit'));
