import { addCapped } from '../core/counts';
import { raiseRegisters } from '../core/sketch';
import type { VisitorDay } from '../core/store/activity';
import type { VisitorDayPart } from '../core/store/facts';
import { NAMES, type NamesKept } from '../core/dimensions';
import { laterExit, OTHER_PATHS, TOP_PATHS } from '../core/store/activity';

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

/** The deepest scroll of each page, capped like the paths: a name pushed under OTHER_PATHS keeps its deepest there. */
function deepest(kept: Record<string, number>, more: Record<string, number>): Record<string, number> {
  const all: Record<string, number> = { ...kept };
  for (const [path, scroll] of Object.entries(more)) all[path] = Math.max(all[path] ?? 0, scroll);
  const named = Object.keys(all).filter((path) => path !== OTHER_PATHS);
  if (named.length < TOP_PATHS || (named.length === TOP_PATHS && all[OTHER_PATHS] === undefined)) return all;
  const top = named.sort((a, b) => all[b]! - all[a]! || (a < b ? -1 : 1)).slice(0, TOP_PATHS - 1);
  const other = Math.max(all[OTHER_PATHS] ?? 0, ...named.slice(TOP_PATHS - 1).map((path) => all[path]!));
  return { ...Object.fromEntries(top.map((path) => [path, all[path]!])), [OTHER_PATHS]: other };
}

/** The visit's last page load, by instant then path. */
function exitOf(current: VisitorDay | null, part: VisitorDayPart): Pick<VisitorDay, 'exit' | 'exit_at'> {
  const [a, b] = [current, part];
  if (a?.exit_at === undefined) return b.exit_at === undefined ? {} : { exit: b.exit!, exit_at: b.exit_at };
  if (b.exit_at === undefined || !laterExit(b.exit_at, b.exit!, a.exit_at, a.exit!)) return { exit: a.exit!, exit_at: a.exit_at };
  return { exit: b.exit!, exit_at: b.exit_at };
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
    fields.page_scroll = deepest(current?.page_scroll ?? {}, part.page_scroll ?? {});
  if (current?.people_sketch !== undefined || part.people_sketch !== undefined)
    fields.people_sketch = raiseRegisters({ ...current?.people_sketch }, part.people_sketch ?? {});
  if (current?.new_sketch !== undefined || part.new_sketch !== undefined)
    fields.new_sketch = raiseRegisters({ ...current?.new_sketch }, part.new_sketch ?? {});
  if (current?.first_days !== undefined || part.first_days !== undefined)
    fields.first_days = mergedByDay(current?.first_days, part.first_days);
  return fields;
}
