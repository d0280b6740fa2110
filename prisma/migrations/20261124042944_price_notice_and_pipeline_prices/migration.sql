-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "price_effective_at" TIMESTAMPTZ(3),
ADD COLUMN     "price_pending" BIGINT;

-- AlterTable
ALTER TABLE "pipelines" ADD COLUMN     "credential_id" UUID,
ADD COLUMN     "step_prices" JSONB NOT NULL DEFAULT '{}';
