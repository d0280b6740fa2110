// POST /api/v1/verify/agent-card - verify an A2A agent card: JWS signature, serving domain, ERC-8004 registrations
import { verifyAgentCard } from '../../a2a/verify-agent-card';
import { endpoint } from '../../http/endpoint';
import { verifyAgentCardBody, verifyAgentCardResult } from '../../schemas/a2a';

export default endpoint({
  method: 'post',
  path: '/api/v1/verify/agent-card',
  summary: 'Verify an A2A AgentCard: its JWS signature, that its domain serves it, and its ERC-8004 registrations',
  description:
    'Send `{card}` (the card itself) or `{url}` (where to fetch it; both: they must match). Checks (1) a JWS in `signatures` over the RFC 8785 canonical card without `signatures`, with the key named by `kid` from the `jku` JWKS (https, or this instance’s own origin); (2) that the origin of the card’s preferred interface serves the same card at /.well-known/agent-card.json or at `url`; (3) that every ERC-8004 registration the card names (the `https://eips.ethereum.org/EIPS/eip-8004` extension’s params.registrations, or a top-level `registrations`) has a tokenURI on this instance’s chain pointing back to the card. Remote documents are fetched SSRF-guarded (no private or loopback addresses, no redirects, 5 s, 256 KiB). The answer is a verdict with one reason per failed check; a `url` that is refused outright (not http(s), credentials, a literal private address) is a 400. See docs/a2a.md.',
  tags: ['A2A'],
  auth: 'none',
  rateLimit: 'verify',
  bodyLimit: 256 * 1024,
  body: verifyAgentCardBody,
  status: 200,
  response: verifyAgentCardResult,
  errors: { 400: 'Neither card nor url, or a url that may not be fetched (scheme, credentials, private address)' },
  handler: ({ body, request }) => verifyAgentCard({ card: body.card, url: body.url, requestUrl: request.url }),
});
