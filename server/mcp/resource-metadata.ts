import { ALL_SCOPES } from '../core/scopes';
import { currentRuntime } from '../core/runtime';

// RFC 9728 OAuth 2.0 Protected Resource Metadata for the MCP endpoint (MCP authorization): served at
// /.well-known/oauth-protected-resource (the whole API) and at the path-suffixed
// /.well-known/oauth-protected-resource/api/v1/mcp (the MCP URL), named by the WWW-Authenticate
// header of every 401 a tool answers. Tokens are not issued by an OAuth authorization server: an agent
// signs in with its wallet (POST /api/v1/auth/challenge, then /api/v1/auth/verify) or uses an API key,
// so the document names no authorization_servers and points at that documentation instead.

export const PRM_PATH = '/.well-known/oauth-protected-resource';
export const MCP_PATH = '/api/v1/mcp';

const base = () => currentRuntime().config.PUBLIC_BASE_URL.replace(/\/$/, '');

/** The metadata URL of the MCP endpoint (path-suffixed, RFC 9728 section 3.1). */
export const mcpResourceMetadataUrl = () => `${base()}${PRM_PATH}${MCP_PATH}`;

/** The metadata document; `resource` is the URL it was asked for (the API's origin or the MCP URL). */
export function protectedResourceMetadata(resourcePath: '' | typeof MCP_PATH) {
  return {
    resource: `${base()}${resourcePath}`,
    bearer_methods_supported: ['header'],
    scopes_supported: [...ALL_SCOPES],
    resource_name: 'Vouchsafe',
    resource_documentation: `${base()}/docs`,
    // Extensions: how a bearer token is obtained (wallet sign-in, no OAuth authorization server).
    token_issuance: {
      challenge_endpoint: `${base()}/api/v1/auth/challenge`,
      verify_endpoint: `${base()}/api/v1/auth/verify`,
      api_key_header: 'X-Api-Key',
    },
  };
}

/** The WWW-Authenticate header of a 401 from the MCP endpoint (RFC 9728 section 5.1). */
export const mcpChallengeHeader = () => ({
  'WWW-Authenticate': `Bearer resource_metadata="${mcpResourceMetadataUrl()}"`,
});
