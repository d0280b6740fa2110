-- CreateTable
CREATE TABLE "stream_leases" (
    "id" TEXT NOT NULL,
    "wallet" TEXT NOT NULL,
    "instance" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stream_leases_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "stream_leases_wallet_idx" ON "stream_leases"("wallet");

-- CreateIndex
CREATE INDEX "stream_leases_instance_idx" ON "stream_leases"("instance");
