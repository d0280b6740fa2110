-- AlterTable
ALTER TABLE "webhooks" ADD COLUMN     "failed_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "paused_until" TIMESTAMPTZ(3);
