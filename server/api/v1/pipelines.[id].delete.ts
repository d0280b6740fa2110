// DELETE /api/v1/pipelines/{id} - delete a pipeline (its runs stay on record)
import { endpoint } from '../../http/endpoint';
import { deletePipeline } from '../../pipelines/delete-pipeline';
import { idParam } from '../../schemas/common';
import { pipelineDeleted } from '../../schemas/pipeline';

export default endpoint({
  method: 'delete',
  path: '/api/v1/pipelines/{id}',
  summary: 'Delete a pipeline',
  tags: ['Pipelines'],
  auth: ['bearer'],
  scopes: ['agents.invoke'],
  rateLimit: 'write',
  params: idParam,
  status: 200,
  response: pipelineDeleted,
  errors: { 404: 'Unknown pipeline (or another wallet’s)' },
  handler: ({ caller, params }) => deletePipeline(caller, params.id),
});
