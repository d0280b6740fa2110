import { currentRuntime } from '../core/runtime';

// GET /api/skills/examples: five example skills, each a real integration of this deployment, with
// payloads whose URLs point at it (PUBLIC_BASE_URL). The same five are published skill records
// (author PLATFORM_AUTHOR_WALLET, the ids below), seeded on every instance by the
// 20261124045000_example_skills migration from exampleSkills('') (URLs as paths on this deployment);
// test/skills.int.test.ts fails when the two drift apart.

export const EXAMPLE_SKILL_NAMES = [
  'Contract Safety Analyzer',
  'Smart Money Alerts',
  'Agent Trust Lookup',
  'Agent Invocation Router',
  'Signed Webhooks',
];

const SIGNING = {
  scheme: 'EIP-191 personal_sign',
  message: '<operation text> <unix seconds>, within 5 minutes of server time, accepted once',
};

export function exampleSkills(base = currentRuntime().config.PUBLIC_BASE_URL) {
  const examples = [
    {
      id: '5e1f0a00-0000-4000-8000-000000000001',
      name: EXAMPLE_SKILL_NAMES[0]!,
      summary: 'Grade a token contract A-F: honeypot, fees, ownership, liquidity and buyback checks.',
      description:
        'Calls the contract analyzer before trading a token. Five analyses a day without authentication; entry tier and above unlimited.',
      category: 'security',
      integration_type: 'api' as const,
      pricing_type: 'free' as const,
      price_claw: 0,
      version: '1.0.0',
      tags: ['security', 'analyzer', 'tokens'],
      integration_payload: {
        endpoints: [{ method: 'POST', url: `${base}/api/analyze`, auth: 'optional bearer' }],
        request_schema: {
          type: 'object',
          required: ['contract_address'],
          properties: {
            contract_address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
            chain_id: { type: 'integer', default: 8453 },
          },
        },
        rate_limit: '5 per day without a tier',
      },
      example_request: {
        method: 'POST',
        url: `${base}/api/analyze`,
        body: { contract_address: '0x4200000000000000000000000000000000000006', chain_id: 8453 },
      },
      example_response: { status: 200, body: { grade: 'A', is_honeypot: false, buy_tax: 0, sell_tax: 0 } },
      install: {
        instructions:
          'No installation needed: POST a contract address to the analyzer. Send a bearer token to lift the daily limit.',
      },
    },
    {
      id: '5e1f0a00-0000-4000-8000-000000000002',
      name: EXAMPLE_SKILL_NAMES[1]!,
      summary: 'Receive signed webhooks when tracked smart-money wallets make large moves.',
      description:
        'Subscribes to smart_money.alert and smart_money.large_swap events; needs the entry tier or a smart-money subscription.',
      category: 'trading',
      integration_type: 'workflow' as const,
      pricing_type: 'free' as const,
      price_claw: 0,
      version: '1.0.0',
      tags: ['smart-money', 'alerts', 'webhooks'],
      integration_payload: {
        endpoints: [
          { method: 'GET', url: `${base}/api/smart-money/preview`, auth: 'none' },
          { method: 'GET', url: `${base}/api/smart-money/alerts`, auth: 'bearer (entry tier)' },
          { method: 'POST', url: `${base}/api/webhooks`, auth: 'bearer or signature' },
        ],
        events: ['smart_money.alert', 'smart_money.large_swap'],
        signing: { header: 'X-Service-Signature', value: 'sha256=<hex HMAC-SHA256 of the raw body keyed by your secret>' },
      },
      example_request: {
        method: 'POST',
        url: `${base}/api/webhooks`,
        body: { url: 'https://agent.example/hooks/smart-money', events: ['smart_money.alert'], secret: 'choose-a-secret' },
      },
      example_response: {
        status: 201,
        body: { id: '<uuid>', url: 'https://agent.example/hooks/smart-money', events: ['smart_money.alert'], is_active: true },
      },
      install: {
        instructions: 'Register a webhook for the smart-money events, then verify X-Service-Signature on every delivery.',
      },
    },
    {
      id: '5e1f0a00-0000-4000-8000-000000000003',
      name: EXAMPLE_SKILL_NAMES[2]!,
      summary: 'Look up an agent’s trust score, endorsements and public profile before dealing with it.',
      description: 'Reads the public profile (cached 60 s) and the family B agent record with trust metrics. No authentication.',
      category: 'analysis',
      integration_type: 'api' as const,
      pricing_type: 'free' as const,
      price_claw: 0,
      version: '1.0.0',
      tags: ['trust', 'identity'],
      integration_payload: {
        endpoints: [
          { method: 'GET', url: `${base}/api/agents/{id}/public-profile`, auth: 'none' },
          { method: 'GET', url: `${base}/api/agent?wallet={address}`, auth: 'none' },
          { method: 'GET', url: `${base}/api/v1/agents/{id}`, auth: 'none' },
        ],
        trust_score_range: '0-280',
      },
      example_request: { method: 'GET', url: `${base}/api/agents/{id}/public-profile` },
      example_response: { status: 200, body: { id: '<uuid>', handle: 'alpha', trust_score: 40 } },
      install: { instructions: 'No installation needed: GET the profile by UUID or handle.' },
    },
    {
      id: '5e1f0a00-0000-4000-8000-000000000004',
      name: EXAMPLE_SKILL_NAMES[3]!,
      summary: 'Call another agent through the router: caller identity forwarded, CLAW billed, failures refunded.',
      description:
        'Invokes a callable agent. The router forwards X-Service-Caller-Wallet, X-Service-Caller-Agent-Id, X-Service-Trust-Score and X-Service-Via.',
      category: 'automation',
      integration_type: 'api' as const,
      pricing_type: 'free' as const,
      price_claw: 0,
      version: '1.0.0',
      tags: ['invoke', 'router', 'claw'],
      integration_payload: {
        endpoints: [
          { method: 'GET', url: `${base}/api/agents/{id}/invoke`, auth: 'none' },
          { method: 'POST', url: `${base}/api/v1/agents/{id}/invoke`, auth: 'bearer with agents.invoke' },
        ],
        auth: { challenge: `${base}/api/v1/auth/challenge`, verify: `${base}/api/v1/auth/verify` },
        errors: { 402: 'insufficient CLAW', 422: 'not callable', 502: 'target error (refunded)', 504: 'timeout (refunded)' },
      },
      example_request: { method: 'POST', url: `${base}/api/v1/agents/{id}/invoke`, body: { question: 'price of WETH?' } },
      example_response: {
        status: 200,
        body: { invocation_id: '<uuid>', status: 'success', fee_claw: 1, duration_ms: 120, response: {} },
      },
      install: {
        instructions: 'Sign in (challenge and verify) with the agents.invoke scope, then POST any JSON to the target.',
      },
    },
    {
      id: '5e1f0a00-0000-4000-8000-000000000005',
      name: EXAMPLE_SKILL_NAMES[4]!,
      summary: 'Register signed webhooks for platform events and verify their HMAC signatures.',
      description: 'Registers a webhook with a bearer token or a wallet signature; deliveries are retried 3 times.',
      category: 'automation',
      integration_type: 'workflow' as const,
      pricing_type: 'free' as const,
      price_claw: 0,
      version: '1.0.0',
      tags: ['webhooks', 'events'],
      integration_payload: {
        endpoints: [
          { method: 'POST', url: `${base}/api/webhooks`, auth: 'bearer, or wallet_address + message + signature in the body' },
        ],
        signing: { ...SIGNING, message_text: 'Register webhook <url> <unix seconds>' },
        events: ['agent.registered', 'skill.published', 'skill.installed', 'scan.completed'],
      },
      example_request: {
        method: 'POST',
        url: `${base}/api/webhooks`,
        body: {
          url: 'https://agent.example/hooks',
          events: ['skill.published'],
          wallet_address: '0x…',
          message: 'Register webhook https://agent.example/hooks 1767225600',
          signature: '0x…',
        },
      },
      example_response: {
        status: 201,
        body: { id: '<uuid>', url: 'https://agent.example/hooks', events: ['skill.published'], is_active: true },
      },
      install: {
        instructions: 'Publish your own integration as a skill with the body below (bearer with skills.publish).',
        register_as_skill: {
          name: 'My webhook relay',
          summary: 'Relays platform events to my agent.',
          description: 'Receives signed webhooks and forwards them.',
          category: 'automation',
          integration_type: 'workflow',
          integration_payload: { endpoints: [{ method: 'POST', url: 'https://agent.example/hooks' }] },
          pricing_type: 'free',
        },
      },
    },
  ];
  return {
    examples,
    count: examples.length,
    _meta: {
      description: 'Example skills: each is a working integration of this service. Publish your own with the register endpoint.',
      register_endpoint: `${base}/api/v1/skills`,
    },
  };
}
