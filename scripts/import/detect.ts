import { readsAsCaddy, caddyFormat } from './caddy';
import { clfFormat, readsAs, type ClfName } from './clf';
import type { LogFormat } from './record';
import { w3cFormat } from './w3c';

/** The formats `--format` names, besides auto and a --log-format. */
export const FORMAT_NAMES = ['combined', 'common', 'vhost_combined', 'vhost_common', 'caddy', 'w3c', 'plausible'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** A log format by its name (not Plausible's, which is not a log). */
export function formatNamed(name: Exclude<FormatName, 'plausible'>): LogFormat {
  if (name === 'caddy') return caddyFormat;
  if (name === 'w3c') return w3cFormat;
  return clfFormat(name);
}

/** The common formats, the most particular first: a combined line also reads as common, a plain one never with a host first. */
const CLF_ORDER: ClfName[] = ['vhost_combined', 'combined', 'vhost_common', 'common'];

/**
 * A file's format from its first lines: W3C by its `#Fields:` or `#Software:` header, Caddy by JSON lines with a
 * request, else the common format (with or without the virtual host, with or without referrer and agent) that reads the
 * most of them, if it reads at least half. Null when none does.
 */
export function detectFormat(lines: readonly string[]): LogFormat | null {
  const filled = lines.filter((line) => line.trim() !== '');
  if (filled.length === 0) return null;
  if (filled.some((line) => /^#(Fields|Software|Version):/i.test(line))) return w3cFormat;
  const json = filled.filter((line) => line.trimStart().startsWith('{'));
  if (json.length * 2 >= filled.length) return json.some(readsAsCaddy) ? caddyFormat : null;
  let best: { name: ClfName; reads: number } | null = null;
  for (const name of CLF_ORDER) {
    const reads = filled.filter((line) => readsAs(line, name)).length;
    if (best === null || reads > best.reads) best = { name, reads };
  }
  return best !== null && best.reads * 2 >= filled.length ? clfFormat(best.name) : null;
}
