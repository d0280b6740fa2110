-- At most one ck_ key issued at sign-in per wallet and agent_pubkey (docs/spec-decisions.md, Sign-in): two
-- concurrent first sign-ins through two different challenges each found no key and minted one. The verify
-- statement now inserts with ON CONFLICT DO NOTHING against this index. Keys that an earlier race already
-- doubled keep working: all but the oldest are marked 'verify_extra' so that the index can be built.
UPDATE "api_keys" k SET "source" = 'verify_extra'
WHERE k."source" = 'verify' AND EXISTS (
  SELECT 1 FROM "api_keys" o
  WHERE o."source" = 'verify' AND o."wallet" = k."wallet" AND o."agent_pubkey" = k."agent_pubkey"
    AND (o."created_at", o."id") < (k."created_at", k."id"));

CREATE UNIQUE INDEX "api_keys_verify_once" ON "api_keys" ("wallet", "agent_pubkey") WHERE "source" = 'verify';
