// POST /api/v1/pipelines/{id}/run - run a pipeline now with a payload
import { ApiError } from '../../core/errors';
import { endpoint } from '../../http/endpoint';
import { ownedPipeline } from '../../pipelines/load-pipeline';
import { runPipeline } from '../../pipelines/run-pipeline';
import { withRunSlot } from '../../pipelines/run-slots';
import { idParam } from '../../schemas/common';
import { pipelineRun, runPipelineBody } from '../../schemas/pipeline';

export default endpoint({
  method: 'post',
  path: '/api/v1/pipelines/{id}/run',
  summary: 'Run a pipeline now',
  description:
    'Runs every step in order and answers the run record (status succeeded or failed; the first failed step stops the run). Each step charges its agent’s price to the pipeline’s owner. ' +
    'Runs at once are bounded: per caller (429) and per instance (503), both with Retry-After.',
  tags: ['Pipelines'],
  auth: ['bearer'],
  scopes: ['agents.invoke'],
  rateLimit: 'write',
  params: idParam,
  body: runPipelineBody,
  status: 200,
  response: pipelineRun,
  errors: {
    404: 'Unknown pipeline (or another wallet’s)',
    409: 'The pipeline is paused',
    429: 'The caller has PIPELINE_MAX_RUNS_PER_CALLER runs going',
    503: 'The instance has PIPELINE_MAX_CONCURRENT_RUNS runs going',
  },
  async handler({ caller, params, body }) {
    const pipeline = await ownedPipeline(caller, params.id);
    if (pipeline.status !== 'active') throw new ApiError('conflict', 'The pipeline is paused; resume it with PATCH first');
    return withRunSlot(caller.wallet, () => runPipeline(pipeline, 'manual', body.payload, caller));
  },
});
