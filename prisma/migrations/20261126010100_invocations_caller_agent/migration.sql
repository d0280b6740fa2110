-- CreateIndex
CREATE INDEX "invocations_caller_agent_id_created_at_idx" ON "invocations"("caller_agent_id", "created_at");
