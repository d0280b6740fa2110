// GET /api/v1/health - liveness and self-checks
import { checkHealth, type HealthReport } from '../../health/check-health';
import { SerializedJson } from '../../http/common-headers';
import { endpoint } from '../../http/endpoint';
import { health } from '../../schemas/health';

// The report changes at most once a second (check-health.ts) however often load balancers poll:
// its JSON is made once per report, not once per request.
let last: { report: HealthReport; json: SerializedJson<HealthReport> } | undefined;

function serialized(report: HealthReport): SerializedJson<HealthReport> {
  if (last?.report !== report) last = { report, json: new SerializedJson(JSON.stringify(report)) };
  return last.json;
}

export default endpoint({
  method: 'get',
  path: '/api/v1/health',
  summary: 'Health check',
  description: 'status is ok when every self-check passes and degraded otherwise; issues_count counts failing checks.',
  tags: ['Platform'],
  auth: 'none',
  status: 200,
  response: health,
  handler: () => checkHealth().then(serialized),
});
