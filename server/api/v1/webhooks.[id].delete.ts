// DELETE /api/v1/webhooks/{id} - remove one of the caller's webhooks (family B; same as DELETE /api/webhooks/{id})
import { alsoAt } from '../../http/endpoint';
import familyA from '../a/webhooks.[id].delete';

export default alsoAt(familyA, '/api/v1/webhooks/{id}');
