-- The walk of GET /api/graph/connections (server/trust/connection-graph.ts) in the database: from the
-- centers, up to p_depth hops, each following the strongest edges of every frontier node each way, until
-- p_max_nodes nodes. It was one statement per hop, each sending every edge read to the server (1,400 rows at
-- the third hop around a wallet of the large preset) to keep 200 nodes: now one call returns the nodes, the
-- traversal edges kept (both ends visited, in the order found) and whether anything was cut.
--
-- A hop, as before: per_node = clamp(ceil(2 * room / frontier), 3, p_edges_per_node) where room is what
-- p_max_nodes leaves; each frontier node's per_node + 1 strongest edges each way (by the strength
-- indexes), of which those ranked past p_edges_per_node only say the graph was cut; the first p_max_edges
-- of them, strongest first (ties by source, target, type); their new endpoints join in the order they
-- first appear until the graph is full.
CREATE FUNCTION vs_graph_walk(
  p_centers uuid[], p_depth integer, p_max_nodes integer, p_edges_per_node integer, p_max_edges integer,
  OUT nodes uuid[], OUT kept_source uuid[], OUT kept_target uuid[], OUT kept_type text[],
  OUT kept_strength double precision[], OUT truncated boolean)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  frontier uuid[] := p_centers;
  room integer;
  per_node integer;
  cut boolean;
  admitted uuid[];
  k_source uuid[];
  k_target uuid[];
  k_type text[];
  k_strength double precision[];
BEGIN
  nodes := p_centers;
  kept_source := '{}';
  kept_target := '{}';
  kept_type := '{}';
  kept_strength := '{}';
  truncated := false;
  FOR level IN 1..p_depth LOOP
    EXIT WHEN cardinality(frontier) = 0;
    room := greatest(p_max_nodes - cardinality(nodes), 0);
    per_node := greatest(3, least(p_edges_per_node, ceil((2 * room)::numeric / cardinality(frontier))::integer));
    IF room = 0 AND per_node < p_edges_per_node AND 2 * (per_node + 1) * cardinality(frontier) <= p_max_edges THEN
      -- The graph is full: this hop can add no node, and the edges it would keep join visited nodes, which the
      -- answer reads anyway (every edge among the nodes). All it can tell is whether a node was left out, and
      -- the first edge to one tells it (the hop read no edge past p_edges_per_node, nor more than p_max_edges).
      truncated := truncated OR EXISTS (
        SELECT 1 FROM unnest(frontier) AS f(id) CROSS JOIN LATERAL (
          (SELECT t.target_agent_id AS other FROM trust_edges t
           WHERE t.source_agent_id = f.id ORDER BY t.strength DESC LIMIT per_node + 1)
          UNION ALL
          (SELECT t.source_agent_id FROM trust_edges t
           WHERE t.target_agent_id = f.id ORDER BY t.strength DESC LIMIT per_node + 1)) e
        WHERE NOT (e.other = ANY (nodes)));
      EXIT;
    END IF;
    WITH read AS MATERIALIZED (
      SELECT e.* FROM unnest(frontier) AS f(id) CROSS JOIN LATERAL (
        (SELECT t.source_agent_id AS source, t.target_agent_id AS target, t.type, t.strength,
                row_number() OVER (ORDER BY t.strength DESC ROWS UNBOUNDED PRECEDING) AS rank
         FROM trust_edges t WHERE t.source_agent_id = f.id ORDER BY t.strength DESC LIMIT per_node + 1)
        UNION ALL
        (SELECT t.source_agent_id, t.target_agent_id, t.type, t.strength,
                row_number() OVER (ORDER BY t.strength DESC ROWS UNBOUNDED PRECEDING)
         FROM trust_edges t WHERE t.target_agent_id = f.id ORDER BY t.strength DESC LIMIT per_node + 1)) e
    ),
    used AS MATERIALIZED (
      SELECT r.source, r.target, r.type, r.strength,
             row_number() OVER (ORDER BY r.strength DESC, r.source, r.target, r.type) AS pos
      FROM read r WHERE r.rank <= p_edges_per_node
    ),
    hop AS MATERIALIZED (SELECT * FROM used WHERE pos <= p_max_edges),
    seen AS MATERIALIZED (SELECT v.id FROM unnest(nodes) AS v(id)),
    ends AS MATERIALIZED (
      SELECT x.id, min(x.at) AS first
      FROM (SELECT h.source AS id, h.pos * 2 AS at FROM hop h UNION ALL SELECT h.target, h.pos * 2 + 1 FROM hop h) x
      WHERE NOT EXISTS (SELECT 1 FROM seen s WHERE s.id = x.id)
      GROUP BY x.id
    ),
    joined AS MATERIALIZED (SELECT id, first FROM ends ORDER BY first LIMIT room),
    visited AS MATERIALIZED (SELECT id FROM seen UNION ALL SELECT id FROM joined),
    kept AS MATERIALIZED (
      SELECT h.* FROM hop h
      WHERE EXISTS (SELECT 1 FROM visited v WHERE v.id = h.source) AND EXISTS (SELECT 1 FROM visited v WHERE v.id = h.target)
    )
    SELECT
      coalesce((SELECT bool_or(r.rank > p_edges_per_node) FROM read r), false)
        OR (SELECT count(*) FROM used) > p_max_edges
        OR (SELECT count(*) FROM ends) > room,
      coalesce((SELECT array_agg(j.id ORDER BY j.first) FROM joined j), '{}'),
      coalesce((SELECT array_agg(k.source ORDER BY k.pos) FROM kept k), '{}'),
      coalesce((SELECT array_agg(k.target ORDER BY k.pos) FROM kept k), '{}'),
      coalesce((SELECT array_agg(k.type ORDER BY k.pos) FROM kept k), '{}'),
      coalesce((SELECT array_agg(k.strength ORDER BY k.pos) FROM kept k), '{}')
    INTO cut, admitted, k_source, k_target, k_type, k_strength;
    truncated := truncated OR cut;
    nodes := nodes || admitted;
    kept_source := kept_source || k_source;
    kept_target := kept_target || k_target;
    kept_type := kept_type || k_type;
    kept_strength := kept_strength || k_strength;
    frontier := admitted;
  END LOOP;
END
$$;
