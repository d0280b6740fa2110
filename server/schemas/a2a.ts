import { z } from '@hono/zod-openapi';
import { httpUrl, jsonObject } from './common';

// Agent2Agent (A2A) protocol v1.0 AgentCard, as its ProtoJSON serialization (camelCase field names,
// specification/a2a.proto in a2aproject/A2A) and Vouchsafe's card verification answer. See docs/a2a.md.

const agentInterface = z.strictObject({
  url: z.string(),
  protocolBinding: z.string(),
  protocolVersion: z.string(),
  tenant: z.string().optional(),
});

const securityScheme = z
  .strictObject({
    httpAuthSecurityScheme: z
      .strictObject({ scheme: z.string(), description: z.string().optional(), bearerFormat: z.string().optional() })
      .optional(),
    apiKeySecurityScheme: z
      .strictObject({ location: z.string(), name: z.string(), description: z.string().optional() })
      .optional(),
  })
  .openapi({ description: 'One member of the SecurityScheme union (httpAuthSecurityScheme or apiKeySecurityScheme here)' });

const securityRequirement = z.strictObject({
  schemes: z.record(z.string(), z.strictObject({ list: z.array(z.string()).optional() })),
});

const agentSkill = z.strictObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  tags: z.array(z.string()),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
});

const agentExtension = z.strictObject({
  uri: z.string(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  params: jsonObject.optional(),
});

export const agentCardSignature = z
  .strictObject({
    protected: z.string().openapi({ description: 'base64url of the JWS Protected Header: {alg, typ, kid, jku}' }),
    signature: z.string().openapi({
      description: 'base64url JWS signature over the RFC 8785 canonical card without `signatures` (detached payload)',
    }),
    header: jsonObject.optional(),
  })
  .openapi('AgentCardSignature');

export const agentCard = z
  .strictObject({
    name: z.string(),
    description: z.string(),
    supportedInterfaces: z.array(agentInterface),
    provider: z.strictObject({ organization: z.string(), url: z.string() }).optional(),
    version: z.string(),
    documentationUrl: z.string().optional(),
    capabilities: z.strictObject({
      streaming: z.boolean().optional(),
      pushNotifications: z.boolean().optional(),
      extensions: z.array(agentExtension).optional(),
      extendedAgentCard: z.boolean().optional(),
    }),
    securitySchemes: z.record(z.string(), securityScheme).optional(),
    securityRequirements: z.array(securityRequirement).optional(),
    defaultInputModes: z.array(z.string()),
    defaultOutputModes: z.array(z.string()),
    skills: z.array(agentSkill),
    signatures: z.array(agentCardSignature).optional(),
    iconUrl: z.string().optional(),
  })
  .openapi('AgentCard', {
    description:
      'An A2A v1.0 AgentCard (ProtoJSON). `signatures[0]` is a JWS (EdDSA, detached payload) over the RFC 8785 canonical card without `signatures`; its protected header names the router key (`kid`) and the JWKS (`jku`, GET /api/v1/router/jwks).',
  });

export const verifyAgentCardBody = z
  .object({
    card: jsonObject.optional().openapi({ description: 'The AgentCard to verify (JSON object)' }),
    url: httpUrl.optional().openapi({ description: 'Where to fetch the AgentCard (https; fetched SSRF-guarded)' }),
  })
  .refine((body) => body.card !== undefined || body.url !== undefined, {
    message: 'send card or url',
    path: ['card'],
  })
  .openapi('VerifyAgentCardRequest');

const check = z.strictObject({
  ok: z.boolean(),
  detail: z.string().openapi({ description: 'What was checked and what was found' }),
});

export const verifyAgentCardResult = z
  .strictObject({
    valid: z.boolean().openapi({ description: 'True when every check below passed' }),
    reasons: z
      .array(z.string())
      .openapi({ description: 'One sentence per failed check, prefixed with its code (empty when valid)' }),
    checked: z.strictObject({
      card_url: z.string().nullable().openapi({ description: 'Where the card was fetched from (null when sent inline)' }),
      shape: check,
      signature: check.extend({
        kid: z.string().nullable(),
        jku: z.string().nullable(),
        alg: z.string().nullable(),
      }),
      domain: check.extend({
        origin: z.string().nullable().openapi({ description: 'The origin of the card’s preferred interface' }),
        served_at: z.string().nullable().openapi({ description: 'The URL that served the same card, if any' }),
      }),
      erc8004: check.extend({
        registrations: z.array(
          z.strictObject({
            agent_registry: z.string(),
            agent_id: z.string(),
            ok: z.boolean(),
            token_uri: z.string().nullable(),
            detail: z.string(),
          }),
        ),
      }),
    }),
  })
  .openapi('VerifyAgentCardResult');
