// PATCH /api/v1/pipelines/{id} - pause or resume a pipeline
import { endpoint } from '../../http/endpoint';
import { setPipelineStatus } from '../../pipelines/set-pipeline-status';
import { idParam } from '../../schemas/common';
import { patchPipelineBody, pipeline } from '../../schemas/pipeline';

export default endpoint({
  method: 'patch',
  path: '/api/v1/pipelines/{id}',
  summary: 'Pause or resume a pipeline',
  description:
    'A paused pipeline fires on no trigger and refuses manual runs (409); events emitted while paused are not replayed.',
  tags: ['Pipelines'],
  auth: ['bearer'],
  scopes: ['agents.invoke'],
  rateLimit: 'write',
  params: idParam,
  body: patchPipelineBody,
  status: 200,
  response: pipeline,
  errors: { 404: 'Unknown pipeline (or another wallet’s)' },
  handler: ({ caller, params, body }) => setPipelineStatus(caller, params.id, body.status),
});
