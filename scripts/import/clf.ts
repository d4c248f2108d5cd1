import { addressOf, clfTime, dashed, none, requestLine, unescaped, unreadable, type LineRead, type LogFormat } from './record';

// A quoted field, a backslash escaping the next character ("unrolled", so a long agent costs one pass, not one alternation a character).
const QUOTED = '"([^"\\\\]*(?:\\\\.[^"\\\\]*)*)"';

/** `%h %l %u %t "%r" %>s %b`, and `"%{Referer}i" "%{User-Agent}i"` after it in the combined format; anything after that is left. */
const TAIL = String.raw`(\S+) (\S+) (.+?) \[([^\]]+)\] ${QUOTED} (\d{3}|-) (\S+)`;
const AGENTS = String.raw` ${QUOTED} ${QUOTED}`;
/** A virtual host first, with its port (Apache's vhost_combined `%v:%p`) or without (a log_format starting with `$host`). */
const VHOST = String.raw`(\S+?)(?::(\d{1,5}))? `;

const patterns = {
  combined: new RegExp(`^${TAIL}${AGENTS}`),
  common: new RegExp(`^${TAIL}(?:\\s|$)`),
  vhost_combined: new RegExp(`^${VHOST}${TAIL}${AGENTS}`),
  vhost_common: new RegExp(`^${VHOST}${TAIL}(?:\\s|$)`),
} as const;

export type ClfName = keyof typeof patterns;

/** The names the common log formats are known by, as `--format` takes them. */
export const CLF_NAMES = Object.keys(patterns) as ClfName[];

const LABELS: Record<ClfName, string> = {
  combined: 'combined (nginx, Apache)',
  common: 'common (nginx, Apache)',
  vhost_combined: 'combined with the virtual host first',
  vhost_common: 'common with the virtual host first',
};

/** One line of a common log format, read; `agents` whether it logs the referrer and the agent. */
function readClf(line: string, name: ClfName): LineRead {
  const vhost = name.startsWith('vhost');
  const match = patterns[name].exec(line);
  if (!match) return unreadable(`does not read as ${LABELS[name]}`);
  const parts = vhost ? match.slice(3) : match.slice(1);
  const [remote, , , time, request, status, , referrer, agent] = parts;
  const address = addressOf(remote!);
  if (address === null) return unreadable('its address is not an IPv4 or IPv6 address');
  const at = clfTime(time!);
  if (at === null) return unreadable('its time cannot be read');
  const target = requestLine(unescaped(request!));
  if (target === null) return unreadable('its request line cannot be read');
  const combined = name.endsWith('combined');
  return {
    kind: 'record',
    record: {
      at,
      address,
      userAgent: combined ? (dashed(unescaped(agent!)) ?? '') : null,
      method: target.method,
      path: target.path,
      status: status === '-' ? null : Number(status),
      referrer: combined ? dashed(unescaped(referrer!)) : null,
      host: vhost ? (dashed(match[1]) ?? null) : null,
    },
  };
}

/** A common log format, by name. */
export function clfFormat(name: ClfName): LogFormat {
  return { name: LABELS[name], reader: () => ({ read: (line) => (line.trim() === '' ? none() : readClf(line, name)) }) };
}

/** Whether a line reads as the format (for detection). */
export const readsAs = (line: string, name: ClfName): boolean => readClf(line, name).kind === 'record';
