-- CreateTable
CREATE TABLE "router_keys" (
    "kid" TEXT NOT NULL,
    "public_jwk" JSONB NOT NULL,
    "private_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),

    CONSTRAINT "router_keys_pkey" PRIMARY KEY ("kid")
);

-- At most one active key, whichever instance generates it first.
CREATE UNIQUE INDEX "router_keys_one_active" ON "router_keys" ((true)) WHERE "retired_at" IS NULL;
