-- Every new agent is an input of the propagated score (migration rank_input_notices sent a notice only for a new
-- agent with a restart weight): while no agent has a weight, the ranking restarts at every agent alike
-- (server/trust/page-rank.ts), so a new agent takes a share of every score, and its own is not 0.
DROP TRIGGER agents_rank_insert_notice ON "agents";
CREATE TRIGGER agents_rank_insert_notice AFTER INSERT ON "agents"
  FOR EACH ROW EXECUTE FUNCTION vs_change_notice('trust', 'id');
