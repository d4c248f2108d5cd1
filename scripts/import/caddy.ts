import { addressOf, epochTime, isoTime, none, unreadable, type LineRead, type LogFormat } from './record';

type Headers = Record<string, unknown>;

/** A header's first value from Caddy's `{"Name": ["value"]}`, the name in any case. */
function header(headers: Headers | undefined, name: string): string | null {
  if (!headers) return null;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  const first = Array.isArray(value) ? (value[0] as unknown) : value;
  return typeof first === 'string' ? first : null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * One line of Caddy's JSON access log (`log { format json }`): `ts` (seconds, or a time string when `time_format` is
 * set), `request.client_ip` (Caddy 2.7 on: the client behind trusted proxies) or `remote_ip` / `remote_addr`,
 * `request.method`, `uri`, `host`, `headers`, and `status`. An entry of another logger is not a request.
 */
function readCaddy(line: string): LineRead {
  if (line.trim() === '') return none();
  let entry: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return unreadable('is not a JSON object');
    entry = parsed as Record<string, unknown>;
  } catch {
    return unreadable('is not JSON');
  }
  const request = entry.request as Record<string, unknown> | undefined;
  if (typeof request !== 'object' || request === null) return none('not a request');
  const ts = entry.ts;
  const at = typeof ts === 'number' ? epochTime(ts) : typeof ts === 'string' ? (isoTime(ts) ?? epochTime(ts)) : null;
  if (at === null) return unreadable('its time (ts) cannot be read');
  const remote = text(request.client_ip) ?? text(request.remote_ip) ?? text(request.remote_addr);
  const address = remote === null ? null : addressOf(remote);
  if (address === null) return unreadable('its address is not an IPv4 or IPv6 address');
  const method = text(request.method);
  const uri = text(request.uri);
  if (method === null || uri === null) return unreadable('its request has no method or uri');
  const headers = request.headers as Headers | undefined;
  return {
    kind: 'record',
    record: {
      at,
      address,
      userAgent: header(headers, 'user-agent') ?? '',
      method: method.toUpperCase(),
      path: uri,
      status: typeof entry.status === 'number' ? entry.status : null,
      referrer: header(headers, 'referer'),
      host: text(request.host),
    },
  };
}

export const caddyFormat: LogFormat = { name: "Caddy's JSON access log", reader: () => ({ read: readCaddy }) };

/** Whether a line reads as a Caddy access log entry (for detection). */
export const readsAsCaddy = (line: string): boolean => readCaddy(line).kind === 'record';
