import {
  addressOf,
  clfTime,
  dashed,
  epochTime,
  isoTime,
  none,
  requestLine,
  unescaped,
  unreadable,
  type LineRead,
  type LogFormat,
} from './record';

/** Variables whose values hold spaces, so a space after one does not end it. */
const SPACEY = new Set(['time_local', 'request', 'http_user_agent', 'http_referer', 'http_cookie']);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const escapeClass = (char: string) => char.replace(/[\]\\^-]/g, '\\$&');

/** What a format must log for a line to be a request: an address, a time, and the request (whole, or its method and target). */
function lacks(names: ReadonlySet<string>): string[] {
  const missing: string[] = [];
  if (!['remote_addr', 'http_x_forwarded_for'].some((name) => names.has(name))) missing.push('$remote_addr');
  if (!['time_local', 'time_iso8601', 'msec'].some((name) => names.has(name))) missing.push('$time_local (or $time_iso8601, $msec)');
  const request =
    names.has('request') || (names.has('request_method') && ['request_uri', 'uri', 'document_uri'].some((name) => names.has(name)));
  if (!request) missing.push('$request (or $request_method with $request_uri)');
  return missing;
}

/** A format in nginx's log_format notation (`$remote_addr - $remote_user [$time_local] "$request" …`), compiled to a reader. */
export function logFormat(spec: string): LogFormat {
  const parts: Array<{ literal: string } | { name: string }> = [];
  const token = /\$\{?([A-Za-z0-9_]+)\}?/g;
  let last = 0;
  for (let match = token.exec(spec); match !== null; match = token.exec(spec)) {
    if (match.index > last) parts.push({ literal: spec.slice(last, match.index) });
    parts.push({ name: match[1]!.toLowerCase() });
    last = match.index + match[0].length;
  }
  if (last < spec.length) parts.push({ literal: spec.slice(last) });
  const names = parts.flatMap((part) => ('name' in part ? [part.name] : []));
  const missing = lacks(new Set(names));
  if (missing.length > 0) throw new Error(`--log-format: the format logs no ${missing.join(', no ')}, so no line of it is a request`);
  const source = parts
    .map((part, index) => {
      if ('literal' in part) return escapeRegExp(part.literal);
      const next = parts[index + 1];
      if (next === undefined) return '(.*)';
      if (!('literal' in next)) return '(\\S*?)';
      const stop = next.literal[0]!;
      if (stop === ' ' && SPACEY.has(part.name)) return '(.*?)';
      return `((?:[^${escapeClass(stop)}\\\\]|\\\\.)*)`;
    })
    .join('');
  const pattern = new RegExp(`^${source}$`);

  const read = (line: string): LineRead => {
    if (line.trim() === '') return none();
    const match = pattern.exec(line);
    if (!match) return unreadable('does not read as the --log-format');
    const values = new Map<string, string>();
    names.forEach((name, index) => {
      if (!values.has(name)) values.set(name, match[index + 1]!);
    });
    const get = (name: string) => dashed(values.get(name));
    const forwarded = get('http_x_forwarded_for')?.split(',')[0]?.trim() ?? null;
    const address = addressOf(get('remote_addr') ?? forwarded ?? '');
    if (address === null) return unreadable('its address is not an IPv4 or IPv6 address');
    const time = get('time_local');
    const iso = get('time_iso8601');
    const msec = get('msec');
    const at = time !== null ? clfTime(time) : iso !== null ? isoTime(iso) : msec !== null ? epochTime(msec) : null;
    if (at === null) return unreadable('its time cannot be read');
    const whole = get('request');
    const target = whole !== null ? requestLine(unescaped(whole)) : null;
    const method = target?.method ?? get('request_method')?.toUpperCase() ?? null;
    const uri = get('request_uri') ?? get('uri') ?? get('document_uri');
    const args = get('args') ?? get('query_string');
    const path = target?.path ?? (uri === null ? null : args === null || uri.includes('?') ? uri : `${uri}?${args}`);
    if (method === null || path === null) return unreadable('its request line cannot be read');
    const status = get('status');
    return {
      kind: 'record',
      record: {
        at,
        address,
        userAgent: values.has('http_user_agent') ? unescaped(get('http_user_agent') ?? '') : null,
        method,
        path: unescaped(path),
        status: status !== null && /^\d{3}$/.test(status) ? Number(status) : null,
        referrer: get('http_referer') === null ? null : unescaped(get('http_referer')!),
        host: get('host') ?? get('http_host') ?? get('server_name'),
      },
    };
  };
  return { name: `--log-format '${spec}'`, reader: () => ({ read }) };
}
