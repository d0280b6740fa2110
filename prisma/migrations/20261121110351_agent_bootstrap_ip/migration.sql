-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "bootstrap_ip_hash" TEXT;

-- CreateIndex
CREATE INDEX "agents_bootstrap_ip_hash_created_at_idx" ON "agents"("bootstrap_ip_hash", "created_at");
