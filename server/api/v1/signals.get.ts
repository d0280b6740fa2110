// GET /api/v1/signals - list signals
import { endpoint } from '../../http/endpoint';
import { SHORT_CACHE } from '../../http/response-cache';
import { listSignals } from '../../signals/list-signals';
import { listSignalsQuery, signalList } from '../../schemas/signals';

export default endpoint({
  method: 'get',
  path: '/api/v1/signals',
  summary: 'List signals',
  tags: ['Signals'],
  auth: 'none',
  query: listSignalsQuery,
  cache: SHORT_CACHE,
  status: 200,
  response: signalList,
  handler: ({ query }) =>
    listSignals({
      signalType: query.signal_type,
      status: query.status,
      sort: query.sort,
      limit: query.limit,
      offset: query.offset,
    }),
});
