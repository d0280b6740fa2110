-- Hand-written (a partial index is not expressible in schema.prisma): keyset pages of an agent's active
-- endorsements, newest first (GET /api/agents/{id}/endorse, server/trust/endorsements.ts). A page reads
-- its rows in index order and stops, however many endorsements the agent has; before, the list read
-- and sorted every active endorsement of the agent (a hub's 10,000+ rows) per request.
CREATE INDEX "endorsements_subject_active_page_idx" ON "endorsements" ("subject_agent_id", "created_at" DESC, "id")
  WHERE "status" = 'active';
