-- AlterTable
ALTER TABLE "events" ADD COLUMN     "audience" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "webhooks" (
    "id" UUID NOT NULL,
    "owner_wallet" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "secret_ciphertext" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "delivery_count" INTEGER NOT NULL DEFAULT 0,
    "last_delivered_at" TIMESTAMPTZ(3),
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "disabled_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "webhook_id" UUID NOT NULL,
    "event_id" BIGINT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "last_attempt_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "event_cursors" (
    "name" TEXT NOT NULL,
    "last_id" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "event_cursors_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "webhooks_owner_wallet_created_at_idx" ON "webhooks"("owner_wallet", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_id_created_at_idx" ON "webhook_deliveries"("webhook_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_webhook_id_event_id_key" ON "webhook_deliveries"("webhook_id", "event_id");

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: commit-ordered event ids (ARCHITECTURE.md, Events). A row is inserted with a
-- temporary negative id; a deferred trigger gives it its log position at commit, while the
-- transaction holds a transaction-scoped advisory lock that is released only after the commit
-- became visible. So a transaction that gets id N+1 starts numbering only after the one holding
-- N is visible: a reader that saw N+1 has seen N, and resuming "after N" never skips an event.
-- The lock is held for the last moment of the transaction only (every other statement ran),
-- so it serializes nothing but the commits of event-writing transactions and cannot deadlock
-- with row locks (the holder touches nothing but its own new event rows).
CREATE SEQUENCE "events_tmp_id_seq";
ALTER TABLE "events" ALTER COLUMN "id" SET DEFAULT -nextval('events_tmp_id_seq');

CREATE OR REPLACE FUNCTION vs_event_commit_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.id < 0 THEN
    PERFORM pg_advisory_xact_lock(hashtext('vs_events:' || current_schema()));
    UPDATE "events" SET "id" = nextval('events_id_seq') WHERE "id" = NEW.id;
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER events_commit_order AFTER INSERT ON "events"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION vs_event_commit_order();

-- Wake-ups across instances (server/core/changes.ts, kind event); a hint only.
CREATE TRIGGER events_change_notice AFTER INSERT ON "events"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('event', 'name');

UPDATE "events" SET "audience" = ARRAY[]::TEXT[] WHERE "audience" IS NULL;
ALTER TABLE "events" ALTER COLUMN "audience" SET NOT NULL;
ALTER TABLE "webhooks" ALTER COLUMN "events" SET NOT NULL;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check"
  CHECK ("status" IN ('pending', 'delivering', 'delivered', 'failed'));

-- The webhook fan-out starts after the events that exist now.
INSERT INTO "event_cursors" ("name", "last_id") SELECT 'webhooks', COALESCE(MAX("id"), 0) FROM "events";
