-- An ERC-8004 token's feedback as Vouchsafe shows it (server/erc8004/feedback.ts: GET /api/v1/agents/{id}/erc8004/feedback,
-- the verifier and its MCP tool). Anyone can write feedback on chain for any token, so both its reads were bounded by
-- how much feedback an attacker paid gas for:
--   - the rows were sorted whole (newest block first), up to every row of the token: now read in that order;
--   - each of up to 1,000 rows asked whether its writer made a paid, successful call to the agent, which the
--     (target_agent_id, created_at) index answered by visiting every call the agent ever received: now one probe of
--     a partial index holding only paid successful calls (a paid call's settlement adds its entry; a free call's
--     record is not in it).

-- CreateIndex
CREATE INDEX "erc8004_feedback_chain_id_identity_registry_token_id_block__idx" ON "erc8004_feedback"("chain_id", "identity_registry", "token_id", "block_number" DESC, "client_address", "feedback_index" DESC);

-- Hand-written (a partial index is not expressible in schema.prisma).
CREATE INDEX "invocations_paid_success_target_caller_idx" ON "invocations" ("target_agent_id", "caller_wallet")
  WHERE "status" = 'success' AND "fee" > 0;
