// GET /api/webhooks - the caller's webhooks (family A; the same as GET /api/v1/webhooks)
import { alsoAt } from '../../http/endpoint';
import familyB from '../v1/webhooks.get';

export default alsoAt(familyB, '/api/webhooks');
