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

/**
 * Why a request looked like a bot, first match in this order: its agent named a bot (crawlers, link previews, HTTP
 * libraries, headless browsers, no agent), its path probes for secrets, its address is on a hosting network, or its
 * headers are ones only automation sends. The order is also the order of the tie-break in leftOutReason.
 */
export const BOT_REASONS = ['agent', 'path', 'network', 'signals'] as const;

export type BotReason = (typeof BOT_REASONS)[number];

/** Bot requests counted by their reason; a reason with none is absent. */
export type BotsByReason = Partial<Record<BotReason, number>>;

/**
 * The reason a scanner's visitor-day was left out: the reason most of its bot requests that day had, ties going to the
 * earlier reason in BOT_REASONS (the surer one: an agent that names itself before a network that only suggests it).
 * Null when its requests carried no reason (kept before reasons were carried).
 */
export function leftOutReason(bots: BotsByReason | undefined): BotReason | null {
  let best: BotReason | null = null;
  for (const reason of BOT_REASONS) {
    const count = bots?.[reason] ?? 0;
    if (count > 0 && (best === null || count > (bots?.[best] ?? 0))) best = reason;
  }
  return best;
}
