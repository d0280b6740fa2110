-- AlterTable
ALTER TABLE "skills" ADD COLUMN     "hidden_at" TIMESTAMPTZ(3),
ADD COLUMN     "hidden_by" TEXT;
