/** Who a visitor is: the site's own reads, a person, or a scanner or crawler. */
export type VisitorKind = 'self' | 'people' | 'scanners';

const strength: Record<VisitorKind, number> = { scanners: 0, people: 1, self: 2 };

/** The one rule: self when the site read itself, a scanner when every request looked like a bot, a person otherwise. */
export function kindOf(self: boolean, requests: number, bots: number): VisitorKind {
  if (self) return 'self';
  return requests > 0 && bots >= requests ? 'scanners' : 'people';
}

/** When two sightings disagree the stronger wins: self > people > scanners. */
export function stronger(a: VisitorKind, b: VisitorKind): VisitorKind {
  return strength[a] >= strength[b] ? a : b;
}
