import { campaignKey } from '../core/identity/campaign';
import { addPerson } from '../core/sketch';
import type { QueuedHit } from '../core/message';
import type { VisitorDayPart } from '../core/store/facts';
import { NAMES } from '../core/dimensions';
import { laterExit } from '../core/store/activity';

const bump = (counts: Record<string, number>, name: string) => {
  counts[name] = (counts[name] ?? 0) + 1;
};

function addPages(part: VisitorDayPart, hit: QueuedHit): void {
  if (!hit.page_load) return;
  bump((part.page_paths ??= {}), hit.path);
  if (part.entry_at === undefined || hit.at < part.entry_at) {
    part.entry = hit.path;
    part.entry_at = hit.at;
  }
  if (part.exit_at === undefined || laterExit(hit.at, hit.path, part.exit_at, part.exit!)) {
    part.exit = hit.path;
    part.exit_at = hit.at;
  }
}

/** A daily token is one address, so the first hit's country stands; requests by minute and path stay on the fact only. */
export function addAudience(part: VisitorDayPart, hit: QueuedHit): void {
  if (hit.country !== undefined && part.country === undefined) part.country = hit.country;
  for (const row of NAMES) {
    const name = hit[row.hit];
    if (name !== undefined) bump((part[row.kept] ??= {}), name);
  }
  if (hit.page_load && hit.campaign) bump((part.campaigns ??= {}), campaignKey(hit.campaign));
  addPages(part, hit);
  part.people_sketch ??= {};
  if (hit.person !== null && !hit.bot && !hit.self) {
    addPerson(part.people_sketch, hit.person);
  }
  bump((part.minute_paths ??= {}), `${hit.at.slice(11, 16)}${hit.path}`);
}
