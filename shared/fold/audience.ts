import { addCapped } from '../core/counts';
import { raiseRegisters } from '../core/sketch';
import type { VisitorDay } from '../core/store/activity';
import type { VisitorDayPart } from '../core/store/facts';
import { NAMES, type NamesKept } from '../core/dimensions';

type AudienceFields = Pick<
  VisitorDay,
  | 'country'
  | NamesKept
  | 'campaigns'
  | 'page_paths'
  | 'entry'
  | 'entry_at'
  | 'people_sketch'
  | 'new_sketch'
  | 'first_days'
  | 'events'
  | 'event_props'
>;

const COUNTED = [...NAMES.map((row) => row.kept), 'campaigns', 'page_paths', 'events', 'event_props'] as const;

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
  if (current?.people_sketch !== undefined || part.people_sketch !== undefined)
    fields.people_sketch = raiseRegisters({ ...current?.people_sketch }, part.people_sketch ?? {});
  if (current?.new_sketch !== undefined || part.new_sketch !== undefined)
    fields.new_sketch = raiseRegisters({ ...current?.new_sketch }, part.new_sketch ?? {});
  if (current?.first_days !== undefined || part.first_days !== undefined)
    fields.first_days = mergedByDay(current?.first_days, part.first_days);
  return fields;
}
