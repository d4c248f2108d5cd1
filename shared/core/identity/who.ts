export type Who = 'self' | 'people' | 'scanners';

const strength: Record<Who, number> = { scanners: 0, people: 1, self: 2 };

/** The one rule: self when the site read itself, a scanner when every request looked like a bot, a person otherwise. */
export function whoOf(self: boolean, requests: number, bots: number): Who {
  if (self) return 'self';
  return requests > 0 && bots >= requests ? 'scanners' : 'people';
}

/** self > people > scanners. */
export function stronger(a: Who, b: Who): Who {
  return strength[a] >= strength[b] ? a : b;
}

/** Why a request looked like a bot, first match wins; leftOutReason breaks ties in this order too. */
export const BOT_REASONS = ['agent', 'path', 'network', 'signals'] as const;

export type BotReason = (typeof BOT_REASONS)[number];

export type BotsByReason = Partial<Record<BotReason, number>>;

/** The most common reason of the day's bot requests, ties to the surer, earlier one; null before reasons were carried. */
export function leftOutReason(bots: BotsByReason | undefined): BotReason | null {
  let best: BotReason | null = null;
  for (const reason of BOT_REASONS) {
    const count = bots?.[reason] ?? 0;
    if (count > 0 && (best === null || count > (bots?.[best] ?? 0))) best = reason;
  }
  return best;
}
