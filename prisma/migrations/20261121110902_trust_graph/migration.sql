-- CreateTable
CREATE TABLE "endorsements" (
    "id" UUID NOT NULL,
    "subject_agent_id" UUID NOT NULL,
    "endorser_wallet" TEXT NOT NULL,
    "attestation_type" TEXT NOT NULL,
    "evidence_url" TEXT,
    "stake_amount" TEXT,
    "message" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "endorsements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "attestations" (
    "id" UUID NOT NULL,
    "subject_agent_id" UUID NOT NULL,
    "attester_wallet" TEXT NOT NULL,
    "attester_agent_id" UUID,
    "verdict" TEXT NOT NULL,
    "weight" INTEGER NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attestations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "trust_edges" (
    "source_agent_id" UUID NOT NULL,
    "target_agent_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "strength" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "trust_edges_pkey" PRIMARY KEY ("source_agent_id","target_agent_id","type")
);

-- CreateIndex
CREATE INDEX "endorsements_subject_agent_id_status_idx" ON "endorsements"("subject_agent_id", "status");

-- CreateIndex
CREATE INDEX "endorsements_endorser_wallet_idx" ON "endorsements"("endorser_wallet");

-- CreateIndex
CREATE INDEX "attestations_subject_agent_id_created_at_idx" ON "attestations"("subject_agent_id", "created_at");

-- CreateIndex
CREATE INDEX "attestations_attester_wallet_subject_agent_id_created_at_idx" ON "attestations"("attester_wallet", "subject_agent_id", "created_at");

-- CreateIndex
CREATE INDEX "trust_edges_target_agent_id_idx" ON "trust_edges"("target_agent_id");

-- spec: 409 when the same endorser already endorsed with that type (while it is active).
CREATE UNIQUE INDEX "endorsements_one_active_per_type" ON "endorsements" ("subject_agent_id", "endorser_wallet", "attestation_type") WHERE "status" = 'active';
