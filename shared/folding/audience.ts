import { addCapped } from '../keeping/counts';
import type { VisitorDay } from '../store/activity';
import type { VisitorDayPart } from '../store/facts';

type AudienceFields = Pick<VisitorDay, 'country' | 'browsers' | 'systems' | 'devices' | 'campaigns'>;

const COUNTED = ['browsers', 'systems', 'devices', 'campaigns'] as const;

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
  return fields;
}
