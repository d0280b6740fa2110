-- CreateTable
CREATE TABLE "wallet_invocation_counts" (
    "wallet" TEXT NOT NULL,
    "made" BIGINT NOT NULL,
    "succeeded" BIGINT NOT NULL,

    CONSTRAINT "wallet_invocation_counts_pkey" PRIMARY KEY ("wallet")
);

-- CreateTable
CREATE TABLE "wallet_invocation_deltas" (
    "id" BIGSERIAL NOT NULL,
    "wallet" TEXT NOT NULL,
    "made" BIGINT NOT NULL,
    "succeeded" BIGINT NOT NULL,

    CONSTRAINT "wallet_invocation_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "wallet_invocation_deltas_wallet_idx" ON "wallet_invocation_deltas"("wallet");

-- Hand-written: the calls each wallet made through the router and how many succeeded, maintained (issue 21: no
-- request counts a table's rows). GET /api/v1/agents/me/stats counted the caller's invocations per request: an agent
-- that calls a thousand times a second made every poll of its own stats count a million rows a day later. The
-- invocation triggers now add, beside the platform counter, one delta row per wallet per changing statement; the read
-- sums the wallet's folded row and its deltas of the last seconds (compactWalletInvocationCounts folds them every 10 s).
-- Delta rows, not an upsert of one row per wallet: a busy caller's concurrent statements would queue on its row.

-- Writers wait while the existing calls are counted (the counts and the triggers start together): about a second per
-- million invocations, once, at the deploy that applies this migration; reads go on.
LOCK TABLE "invocations" IN SHARE ROW EXCLUSIVE MODE;

CREATE OR REPLACE FUNCTION vs_count_successful_invocations() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  -- Two plain statements per branch: measured cheaper than one CTE that inserts and sums (about 15 µs a statement).
  IF TG_OP = 'INSERT' THEN
    INSERT INTO wallet_invocation_deltas (wallet, made, succeeded)
      SELECT caller_wallet, count(*), count(*) FILTER (WHERE status = 'success') FROM vs_new GROUP BY caller_wallet;
    SELECT count(*) INTO delta FROM vs_new WHERE status = 'success';
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO wallet_invocation_deltas (wallet, made, succeeded)
      SELECT caller_wallet, -count(*), -count(*) FILTER (WHERE status = 'success') FROM vs_old GROUP BY caller_wallet;
    SELECT -count(*) INTO delta FROM vs_old WHERE status = 'success';
  ELSE
    -- A settlement moves a call from pending to its outcome: only what changed, per wallet.
    INSERT INTO wallet_invocation_deltas (wallet, made, succeeded)
      SELECT wallet, sum(made), sum(succeeded) FROM (
        SELECT caller_wallet AS wallet, 1 AS made, (status = 'success')::int AS succeeded FROM vs_new
        UNION ALL
        SELECT caller_wallet, -1, -(status = 'success')::int FROM vs_old) x
      GROUP BY wallet HAVING sum(made) <> 0 OR sum(succeeded) <> 0;
    SELECT (SELECT count(*) FROM vs_new WHERE status = 'success') - (SELECT count(*) FROM vs_old WHERE status = 'success')
      INTO delta;
  END IF;
  IF delta <> 0 THEN
    INSERT INTO platform_counts (name, n) VALUES ('invocations', delta);
  END IF;
  RETURN NULL;
END $$;

INSERT INTO "wallet_invocation_counts" ("wallet", "made", "succeeded")
SELECT "caller_wallet", count(*), count(*) FILTER (WHERE "status" = 'success') FROM "invocations" GROUP BY "caller_wallet";
