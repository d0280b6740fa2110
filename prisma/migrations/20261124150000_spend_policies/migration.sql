-- CreateTable
CREATE TABLE "spend_policies" (
    "credential_id" UUID NOT NULL,
    "wallet" TEXT NOT NULL,
    "restrict_payees" BOOLEAN NOT NULL DEFAULT false,
    "allowed_payees" TEXT[],
    "max_per_call" BIGINT,
    "approval_above" BIGINT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spend_policies_pkey" PRIMARY KEY ("credential_id")
);

-- CreateTable
CREATE TABLE "spend_approvals" (
    "id" UUID NOT NULL,
    "wallet" TEXT NOT NULL,
    "credential_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "payee_agent_id" UUID,
    "payee_wallet" TEXT,
    "amount" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "spend_approvals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "spend_approval_uses" (
    "approval_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "spend_approval_uses_pkey" PRIMARY KEY ("approval_id")
);

-- CreateIndex
CREATE INDEX "spend_policies_wallet_idx" ON "spend_policies"("wallet");

-- CreateIndex
CREATE INDEX "spend_approvals_wallet_created_at_idx" ON "spend_approvals"("wallet", "created_at");

-- CreateIndex
CREATE INDEX "spend_approvals_credential_id_status_idx" ON "spend_approvals"("credential_id", "status");
