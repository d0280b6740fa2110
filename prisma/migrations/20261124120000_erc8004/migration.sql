-- CreateTable
CREATE TABLE "erc8004_links" (
    "agent_id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "registry" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "verified_wallet" TEXT NOT NULL,
    "linked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "erc8004_links_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "erc8004_feedback" (
    "id" UUID NOT NULL,
    "chain_id" INTEGER NOT NULL,
    "identity_registry" TEXT NOT NULL,
    "token_id" TEXT NOT NULL,
    "client_address" TEXT NOT NULL,
    "feedback_index" BIGINT NOT NULL,
    "value" TEXT NOT NULL,
    "value_decimals" INTEGER NOT NULL,
    "tag1" TEXT NOT NULL,
    "tag2" TEXT NOT NULL,
    "endpoint" TEXT NOT NULL,
    "feedback_uri" TEXT NOT NULL,
    "feedback_hash" TEXT NOT NULL,
    "revoked" BOOLEAN NOT NULL DEFAULT false,
    "block_number" BIGINT NOT NULL,
    "tx_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "erc8004_feedback_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "erc8004_cursors" (
    "id" TEXT NOT NULL,
    "last_block" BIGINT NOT NULL,

    CONSTRAINT "erc8004_cursors_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "erc8004_links_chain_id_registry_token_id_key" ON "erc8004_links"("chain_id", "registry", "token_id");

-- CreateIndex
CREATE INDEX "erc8004_feedback_chain_id_identity_registry_token_id_create_idx" ON "erc8004_feedback"("chain_id", "identity_registry", "token_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "erc8004_feedback_chain_id_identity_registry_token_id_client_key" ON "erc8004_feedback"("chain_id", "identity_registry", "token_id", "client_address", "feedback_index");
