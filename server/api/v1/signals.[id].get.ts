// GET /api/v1/signals/{id} - one signal with its stake totals
import { endpoint } from '../../http/endpoint';
import { getSignal } from '../../signals/list-signals';
import { idParam } from '../../schemas/common';
import { signalDetail } from '../../schemas/signals';

export default endpoint({
  method: 'get',
  path: '/api/v1/signals/{id}',
  summary: 'One signal with its stake totals and largest stakes',
  tags: ['Signals'],
  auth: 'none',
  params: idParam,
  status: 200,
  response: signalDetail,
  errors: { 404: 'Unknown signal' },
  handler: ({ params }) => getSignal(params.id),
});
