-- Hand-written (INCLUDE is not expressible in schema.prisma): the agent lists' order, newest first with
-- ties by id (server/directory/list-agents.ts), carrying the columns every list filter tests. A page is
-- an index-only walk: no sort, no heap visit per skipped row (offset 940 of the plain list visited 961
-- heap rows through agents_created_at_idx and sorted them by id, 17.8 ms cold at 100,000 agents; now
-- 0.1 ms), and a dense search (over 1,000 matches) tests name, handle, tier and is_callable in the
-- index itself (`agent-77`: 3,660 entries in 1.5 ms instead of 16 ms through the heap).
CREATE INDEX "agents_list_order_idx" ON "agents" ("created_at" DESC, "id") INCLUDE ("name", "handle", "tier", "is_callable");
