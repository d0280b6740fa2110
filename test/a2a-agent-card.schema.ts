// JSON Schema (2020-12) of an A2A v1.0 AgentCard, written from the specification (a2aproject/A2A,
// specification/a2a.proto messages AgentCard, AgentInterface, AgentProvider, AgentCapabilities,
// AgentExtension, AgentSkill, AgentCardSignature, SecurityScheme, SecurityRequirement; ProtoJSON field
// names, section 5.5). REQUIRED fields are required; unknown fields are refused so that a misspelt
// field fails. Independent of the server's zod schema on purpose.

const stringArray = { type: 'array', items: { type: 'string' } };
const securityRequirement = {
  type: 'object',
  additionalProperties: false,
  required: ['schemes'],
  properties: {
    schemes: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: { list: stringArray },
      },
    },
  },
};

export const agentCardJsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'A2A v1.0 AgentCard',
  type: 'object',
  additionalProperties: false,
  required: [
    'name',
    'description',
    'supportedInterfaces',
    'version',
    'capabilities',
    'defaultInputModes',
    'defaultOutputModes',
    'skills',
  ],
  properties: {
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    supportedInterfaces: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['url', 'protocolBinding', 'protocolVersion'],
        properties: {
          url: { type: 'string', minLength: 1 },
          protocolBinding: { type: 'string', minLength: 1 },
          tenant: { type: 'string' },
          protocolVersion: { type: 'string', pattern: '^\\d+\\.\\d+$' },
        },
      },
    },
    provider: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'organization'],
      properties: { url: { type: 'string', format: 'uri' }, organization: { type: 'string', minLength: 1 } },
    },
    version: { type: 'string', minLength: 1 },
    documentationUrl: { type: 'string', format: 'uri' },
    capabilities: {
      type: 'object',
      additionalProperties: false,
      properties: {
        streaming: { type: 'boolean' },
        pushNotifications: { type: 'boolean' },
        extendedAgentCard: { type: 'boolean' },
        extensions: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              uri: { type: 'string' },
              description: { type: 'string' },
              required: { type: 'boolean' },
              params: { type: 'object' },
            },
          },
        },
      },
    },
    securitySchemes: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        minProperties: 1,
        maxProperties: 1,
        additionalProperties: false,
        properties: {
          apiKeySecurityScheme: {
            type: 'object',
            additionalProperties: false,
            required: ['location', 'name'],
            properties: {
              description: { type: 'string' },
              location: { enum: ['query', 'header', 'cookie'] },
              name: { type: 'string' },
            },
          },
          httpAuthSecurityScheme: {
            type: 'object',
            additionalProperties: false,
            required: ['scheme'],
            properties: { description: { type: 'string' }, scheme: { type: 'string' }, bearerFormat: { type: 'string' } },
          },
          oauth2SecurityScheme: { type: 'object' },
          openIdConnectSecurityScheme: { type: 'object' },
          mtlsSecurityScheme: { type: 'object' },
        },
      },
    },
    securityRequirements: { type: 'array', items: securityRequirement },
    defaultInputModes: stringArray,
    defaultOutputModes: stringArray,
    skills: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'description', 'tags'],
        properties: {
          id: { type: 'string', minLength: 1 },
          name: { type: 'string', minLength: 1 },
          description: { type: 'string' },
          tags: stringArray,
          examples: stringArray,
          inputModes: stringArray,
          outputModes: stringArray,
          securityRequirements: { type: 'array', items: securityRequirement },
        },
      },
    },
    signatures: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['protected', 'signature'],
        properties: {
          protected: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
          signature: { type: 'string', pattern: '^[A-Za-z0-9_-]+$' },
          header: { type: 'object' },
        },
      },
    },
    iconUrl: { type: 'string' },
  },
} as const;
