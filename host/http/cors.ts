import type { Answer } from './envelope';
import type { IncomingRequest } from './request';

export interface CorsPolicy {
  allowedOrigins: readonly string[];
  methods: readonly string[];
  allowHeaders: readonly string[];
  credentials: boolean;
}

/** A request with no Origin gets no CORS headers but is not refused here. */
export function corsHeaders(request: IncomingRequest, policy: CorsPolicy): Record<string, string> | null {
  const origin = request.header('origin');
  if (origin === null) return {};
  if (!policy.allowedOrigins.includes(origin)) return null;
  const headers: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'Origin' };
  if (policy.credentials) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

export function preflight(request: IncomingRequest, policy: CorsPolicy): Answer {
  const headers = corsHeaders(request, policy);
  if (headers === null || request.header('origin') === null)
    return { status: 403, body: { error: { code: 'origin_not_allowed', message: 'origin: this origin is not allowed' } } };
  return {
    status: 204,
    headers: {
      ...headers,
      'access-control-allow-methods': policy.methods.join(', '),
      'access-control-allow-headers': policy.allowHeaders.join(', '),
      'access-control-max-age': '600',
    },
  };
}
