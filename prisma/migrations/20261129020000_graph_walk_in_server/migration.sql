-- GET /api/graph/connections walks in the server again (server/trust/connection-graph.ts): one bounded read per
-- hop (each frontier node's strongest edges each way, as one JSON value), the hop's choices made there. The
-- function's CTEs spent 2 ms of the database's time per hop on the ~600 edges the second hop reads; the server
-- makes the same choices in 0.1 ms, and the walk took 2.05 ms instead of 2.76 ms at depth 2 on the large preset
-- (2026-11-29, warm, same answers for 40 wallets).
DROP FUNCTION vs_graph_walk(uuid[], integer, integer, integer, integer);
