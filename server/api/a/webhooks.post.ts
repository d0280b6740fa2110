// POST /api/webhooks - subscribe a URL to events (family A; bearer, signature headers or a signed body)
import type { AnyEndpoint } from '../../http/endpoint';
import { webhookBody } from '../../schemas/webhook';
import familyB from '../v1/webhooks.post';

// The family-B operation, which also accepts signature headers and a signed body.
const familyA: AnyEndpoint = {
  ...familyB,
  path: '/api/webhooks',
  description:
    'Authenticate with a bearer token (scope webhooks.manage), signature headers, or wallet_address + message + signature in the body, ' +
    `where the message is \`Register webhook <url> <unix seconds>\`. ${familyB.description}`,
  auth: ['bearer', 'api_key', 'signature', 'signed_body'],
  signedAction: ({ body }: { body: { url: string } }) => `Register webhook ${body.url}`,
  signer: 'wallet_address',
  body: webhookBody,
};

export default familyA;
