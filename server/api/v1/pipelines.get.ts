// GET /api/v1/pipelines - the caller's pipelines
import { endpoint } from '../../http/endpoint';
import { listPipelines } from '../../pipelines/list-pipelines';
import { pipelineList } from '../../schemas/pipeline';

export default endpoint({
  method: 'get',
  path: '/api/v1/pipelines',
  summary: 'List your pipelines',
  tags: ['Pipelines'],
  auth: ['bearer'],
  status: 200,
  response: pipelineList,
  handler: ({ caller }) => listPipelines(caller),
});
