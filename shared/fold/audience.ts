import { addCapped } from '../core/counts';
import { raiseRegisters } from '../core/sketch';
import type { VisitorDay } from '../core/store/activity';
import type { VisitorDayPart } from '../core/store/facts';
import { NAMES, type NamesKept } from '../core/dimensions';
import { firstInstants, firstOffsets, laterExit, OTHER_PATHS } from '../core/store/activity';

type AudienceFields = Pick<
  VisitorDay,
  | 'country'
  | NamesKept
  | 'campaigns'
  | 'page_paths'
  | 'entry'
  | 'entry_at'
  | 'exit'
  | 'exit_at'
  | 'engaged_ms'
  | 'page_ms'
  | 'page_scroll'
  | 'people_sketch'
  | 'new_sketch'
  | 'first_days'
  | 'events'
  | 'event_props'
>;

const COUNTED = [...NAMES.map((row) => row.kept), 'campaigns', 'page_paths', 'page_ms', 'events', 'event_props'] as const;

/** Each page's deepest scroll, kept for the pages its engaged ms keeps by name; the rest's deepest under OTHER_PATHS. */
function deepest(kept: Record<string, number>, more: Record<string, number>, named: Record<string, number>): Record<string, number> {
  const all: Record<string, number> = {};
  for (const [path, scroll] of [...Object.entries(kept), ...Object.entries(more)]) {
    const at = path in named ? path : OTHER_PATHS;
    all[at] = Math.max(all[at] ?? 0, scroll);
  }
  return all;
}

/** The visit's last page load, by instant then path. */
function exitOf(current: VisitorDay | null, part: VisitorDayPart): Pick<VisitorDay, 'exit' | 'exit_at'> {
  const partLater =
    current?.exit_at === undefined || (part.exit_at !== undefined && laterExit(part.exit_at, part.exit!, current.exit_at, current.exit!));
  const last = partLater ? part : current;
  return last.exit_at === undefined ? {} : { exit: last.exit!, exit_at: last.exit_at };
}

/**
 * Each name's earliest first time, for the names the visitor-day's `paths` and `events` keep. A part of engagements
 * alone asks nothing; any other part or visitor-day without first times leaves the day without them, counted by set.
 */
export function withFirstTimes(
  current: VisitorDay | null,
  part: VisitorDayPart,
  kept: Pick<VisitorDay, 'paths' | 'events' | 'first_seen'>,
): Pick<VisitorDay, 'first_at'> {
  if (part.requests === 0)
    return current?.first_at === undefined ? {} : { first_at: firstOffsets(kept.first_seen, firstInstants(current)!) };
  if (part.first_at === undefined || (current !== null && current.first_at === undefined)) return {};
  const first: Record<string, string> = {};
  for (const [key, at] of [...Object.entries((current && firstInstants(current)) ?? {}), ...Object.entries(part.first_at)]) {
    const named = key.startsWith('event:')
      ? (kept.events ?? {})[key.slice(6)] !== undefined
      : key !== OTHER_PATHS && kept.paths[key] !== undefined;
    if (named && (first[key] === undefined || at < first[key])) first[key] = at;
  }
  return { first_at: firstOffsets(kept.first_seen, first) };
}

/** Two sketches by first day merged, day by day. */
function mergedByDay(a: Record<string, Record<string, number>> = {}, b: Record<string, Record<string, number>> = {}) {
  const merged = { ...a };
  for (const [day, registers] of Object.entries(b)) merged[day] = raiseRegisters({ ...merged[day] }, registers);
  return merged;
}

/**
 * The audience fields of a visitor-day with a fact's part added: the country it already has (else the part's), and
 * each count map added and capped. A field neither holds stays absent, so a visitor-day of older facts reads as before.
 * The part's requests by minute stay on the fact.
 */
export function withAudience(current: VisitorDay | null, part: VisitorDayPart): AudienceFields {
  const fields: AudienceFields = {};
  const country = current?.country ?? part.country;
  if (country !== undefined) fields.country = country;
  for (const name of COUNTED) {
    if (current?.[name] === undefined && part[name] === undefined) continue;
    fields[name] = addCapped(current?.[name] ?? {}, part[name] ?? {});
  }
  const entry = [current, part].filter((one) => one?.entry_at !== undefined).sort((a, b) => (a!.entry_at! < b!.entry_at! ? -1 : 1))[0];
  if (entry) {
    fields.entry = entry.entry!;
    fields.entry_at = entry.entry_at!;
  }
  Object.assign(fields, exitOf(current, part));
  if (current?.engaged_ms !== undefined || part.engaged_ms !== undefined)
    fields.engaged_ms = (current?.engaged_ms ?? 0) + (part.engaged_ms ?? 0);
  if (current?.page_scroll !== undefined || part.page_scroll !== undefined)
    fields.page_scroll = deepest(current?.page_scroll ?? {}, part.page_scroll ?? {}, fields.page_ms ?? {});
  if (current?.people_sketch !== undefined || part.people_sketch !== undefined)
    fields.people_sketch = raiseRegisters({ ...current?.people_sketch }, part.people_sketch ?? {});
  if (current?.new_sketch !== undefined || part.new_sketch !== undefined)
    fields.new_sketch = raiseRegisters({ ...current?.new_sketch }, part.new_sketch ?? {});
  if (current?.first_days !== undefined || part.first_days !== undefined)
    fields.first_days = mergedByDay(current?.first_days, part.first_days);
  return fields;
}
