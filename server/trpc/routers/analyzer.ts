import analyzeEndpoint from '../../api/a/analyze.post';
import { router } from '../init';
import { procedureFrom } from '../procedure-from';

export const analyzerRouter = router({
  /**
   * POST /api/analyze for the page: the same body checks, the same free limit (5 per client IP per day,
   * shared with the REST API and taken back when the analysis fails; entry tier and above unlimited),
   * and the same service.
   */
  analyze: procedureFrom(analyzeEndpoint, (input: { contract_address: string; chain_id?: number }) => ({ body: input })),
});
