-- DropIndex
DROP INDEX "agents_bootstrap_ip_hash_created_at_idx";

-- AlterTable
ALTER TABLE "rate_limit_counters" ADD COLUMN     "members" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- AlterTable
ALTER TABLE "agents" DROP COLUMN "bootstrap_ip_hash";
