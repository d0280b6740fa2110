-- Reads that scanned a whole table on every request they were not cached for (an audit of the request paths,
-- 2026-11-29):
--   - the smart-money feed (GET /api/smart-money/events, /api/v1/smart-money/events) orders by block and log index,
--     which no index covered: every page sorted the whole table (never pruned), with or without a wallet;
--   - a job search word (`q`, GET /api/v1/jobs, tRPC jobs.list, MCP list_jobs) is `search_text LIKE '%word%'`: a
--     rare word scanned every job, for the page and for its bounded count;
--   - a wallet's spend approvals (GET /api/v1/approvals) are matched on lower(wallet), which the (wallet, created_at)
--     index does not serve.

-- CreateIndex
CREATE INDEX "smart_money_events_block_number_log_index_idx" ON "smart_money_events"("block_number" DESC, "log_index" DESC);

-- CreateIndex
CREATE INDEX "smart_money_events_wallet_address_block_number_log_index_idx" ON "smart_money_events"("wallet_address", "block_number" DESC, "log_index" DESC);

-- Hand-written (not expressible in schema.prisma, like the agents' trigram indexes).
CREATE INDEX "jobs_search_text_trgm_idx" ON "jobs" USING gin ("search_text" public.gin_trgm_ops) WITH (fastupdate = off);
CREATE INDEX "spend_approvals_lower_wallet_created_at_idx" ON "spend_approvals" (lower("wallet"), "created_at" DESC, "id");
