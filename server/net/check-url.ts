import { isIP } from 'node:net';
import { ApiError } from '../core/errors';
import { isBlockedAddress, isLocalHostname } from './address-policy';

export interface UrlPolicy {
  /** Accept plain http (testnet, or private URLs allowed for local development). */
  allowHttp: boolean;
  /** ALLOW_PRIVATE_URLS: loopback and private targets allowed (tests, local development). */
  allowPrivate: boolean;
}

/**
 * Static check of an outbound URL when it is saved (invoke_url, webhook url): scheme, no
 * credentials, and no private address written literally or by a local name. The outbound
 * client checks the resolved addresses again at connect time.
 */
export function checkOutboundUrl(raw: string, policy: UrlPolicy, field: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, 'must be an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw invalid(field, policy.allowHttp ? 'must be an http or https URL' : 'must be an https URL');
  }
  if (url.username || url.password) throw invalid(field, 'must not contain credentials');
  if (!policy.allowPrivate) {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(host) !== 0;
    if ((literal && isBlockedAddress(host)) || (!literal && isLocalHostname(host))) {
      throw invalid(field, 'must not point to a loopback, private, link-local or metadata address');
    }
  }
  return url;
}

function invalid(field: string, message: string): ApiError {
  return new ApiError('invalid_request', `${field} ${message}`, { fields: { [field]: message } });
}
