// POST /api/v1/pipelines - create a pipeline (costs 500 CLAW)
import { endpoint, reply } from '../../http/endpoint';
import { createPipeline } from '../../pipelines/create-pipeline';
import { createPipelineBody, pipelineCreated } from '../../schemas/pipeline';

export default endpoint({
  method: 'post',
  path: '/api/v1/pipelines',
  summary: 'Create a pipeline (500 CLAW)',
  description:
    'Up to 10 steps, each invoking an agent through the router. Triggers: manual (POST run), cron (5-field UTC expression in cron_expression or trigger_event), sse_event (a public event name, trigger_filter matched against its data). See docs/spec-decisions.md (Pipelines) for the input_mapping syntax.',
  tags: ['Pipelines'],
  auth: ['bearer'],
  scopes: ['agents.invoke'],
  rateLimit: 'write',
  idempotent: true,
  body: createPipelineBody,
  status: 201,
  response: pipelineCreated,
  errors: { 402: 'Insufficient CLAW for the 500 CLAW fee', 409: 'Too many pipelines' },
  async handler({ caller, body }) {
    return reply(
      201,
      await createPipeline(caller, {
        name: body.name,
        triggerType: body.trigger_type,
        triggerEvent: body.trigger_event,
        triggerFilter: body.trigger_filter,
        cronExpression: body.cron_expression,
        steps: body.steps,
        maxSpendPerRun: body.max_spend_claw_per_run,
      }),
    );
  },
});
