// GET /api/v1/pipelines/{id} - one of the caller's pipelines with its recent runs
import { endpoint } from '../../http/endpoint';
import { getPipeline } from '../../pipelines/get-pipeline';
import { idParam } from '../../schemas/common';
import { pipelineDetail } from '../../schemas/pipeline';

export default endpoint({
  method: 'get',
  path: '/api/v1/pipelines/{id}',
  summary: 'A pipeline with its 20 most recent runs',
  tags: ['Pipelines'],
  auth: ['bearer'],
  params: idParam,
  status: 200,
  response: pipelineDetail,
  errors: { 404: 'Unknown pipeline (or another wallet’s)' },
  handler: ({ caller, params }) => getPipeline(caller, params.id),
});
