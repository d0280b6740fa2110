-- CreateTable
CREATE TABLE "standing_changes" (
    "id" BIGSERIAL NOT NULL,
    "wallet" TEXT NOT NULL,
    "marked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "standing_changes_pkey" PRIMARY KEY ("id")
);

-- Hand-written: what can give an endorser standing (server/trust/endorser-standing.ts) marks its wallet
-- here when it endorses anyone, so the agents it endorsed are re-derived (edges) and recounted
-- (agent_stats) by the refresh-endorser-standing job: a tier change, a successful paid call between two
-- wallets (both sides), and CLAW earned from someone else (the reasons endorserStandingSql counts).
CREATE OR REPLACE FUNCTION vs_mark_standing(w text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO standing_changes (wallet)
  SELECT w WHERE EXISTS (SELECT 1 FROM endorsements WHERE endorser_wallet = w AND status = 'active');
$$;

CREATE OR REPLACE FUNCTION vs_standing_from_agent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM vs_mark_standing(NEW.owner_wallet);
  RETURN NULL;
END $$;
CREATE TRIGGER agents_standing AFTER UPDATE OF "tier" ON "agents"
  FOR EACH ROW WHEN (OLD.tier IS DISTINCT FROM NEW.tier) EXECUTE FUNCTION vs_standing_from_agent();

CREATE OR REPLACE FUNCTION vs_standing_from_invocation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM vs_mark_standing(NEW.caller_wallet);
  PERFORM vs_mark_standing(NEW.target_wallet);
  RETURN NULL;
END $$;
CREATE TRIGGER invocations_standing_ins AFTER INSERT ON "invocations"
  FOR EACH ROW WHEN (NEW.status = 'success' AND NEW.fee > 0 AND NEW.caller_wallet <> NEW.target_wallet)
  EXECUTE FUNCTION vs_standing_from_invocation();
CREATE TRIGGER invocations_standing_upd AFTER UPDATE OF "status" ON "invocations"
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status = 'success' AND NEW.fee > 0
    AND NEW.caller_wallet <> NEW.target_wallet)
  EXECUTE FUNCTION vs_standing_from_invocation();

CREATE OR REPLACE FUNCTION vs_standing_from_posting() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_transactions t WHERE t.id = NEW.transaction_id
             AND t.reason IN ('deposit', 'job_payment', 'skill_purchase', 'skill_subscription', 'referral_payout')) THEN
    PERFORM vs_mark_standing(substr(NEW.account_id, 8));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER ledger_postings_standing AFTER INSERT ON "ledger_postings"
  FOR EACH ROW WHEN (NEW.amount > 0 AND NEW.account_id LIKE 'wallet:%') EXECUTE FUNCTION vs_standing_from_posting();
