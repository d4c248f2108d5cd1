import { agentFamily, isBotAgent } from '../../shared/core/identity/agent';
import { UNLOGGED_AGENT } from '../../shared/ingest/classify';
import type { HostingNetworks } from '../../shared/core/identity/network-table';
import { isLoopback } from '../../shared/core/identity/network';
import { cleanPath, isScannerPath } from '../../shared/core/identity/paths';
import { flat, type LogRecord } from './record';

/**
 * A 53-bit number from a text (cyrb53), unkeyed: the sets below hold a number a visitor and a visit, never an address
 * or an agent, and two of a million visitors share one about once in ten thousand imports.
 */
function digest(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ char, 2_654_435_761);
    h2 = Math.imul(h2 ^ char, 1_597_334_677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2_246_822_507) ^ Math.imul(h2 ^ (h2 >>> 13), 3_266_489_909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2_246_822_507) ^ Math.imul(h1 ^ (h1 >>> 13), 3_266_489_909);
  return 4_294_967_296 * (2_097_151 & h2) + (h1 >>> 0);
}

/**
 * A map that forgets everything once it holds `most` entries: enough for the few hundred agents or thousands of
 * addresses a log repeats. A key is a slice of its line's chunk: it is kept (and read) as a copy of its own, so the
 * map never holds a chunk alive.
 */
export function remembered<V>(most: number, read: (key: string) => V): (key: string) => V {
  const held = new Map<string, V>();
  return (key) => {
    let value = held.get(key);
    if (value === undefined) {
      if (held.size >= most) held.clear();
      const own = flat(key);
      value = read(own);
      held.set(own, value);
    }
    return value;
  };
}

/**
 * What the import will add, estimated from the lines as the app's rules read them, without its key: a person is an
 * (address, agent family) with a request that is not a bot's (by agent, path or hosting network) and not the site's own
 * (loopback, the self tag); a scanner one whose every request is a bot's; a visit a person's day (an address and agent
 * family with a person's request on a UTC day). The app's figures after the backfill are the truth (its own networks, cookies and the live days differ).
 * Memory holds a number a visitor and a visit, never a line.
 */
export class Estimate {
  private readonly people = new Set<number>();
  private readonly bots = new Set<number>();
  private readonly visits = new Set<number>();
  private readonly agentOf = remembered(20_000, (agent: string) => ({ family: agentFamily(agent), bot: isBotAgent(agent) }));
  private readonly addressOf: (address: string) => { self: boolean; hosting: boolean };

  constructor(private readonly rules: { selfAgentTag: string; networks: HostingNetworks | null }) {
    this.addressOf = remembered(50_000, (address: string) => ({
      self: isLoopback(address),
      hosting: (rules.networks?.hostingAsn(address) ?? null) !== null,
    }));
  }

  add(record: LogRecord, day: string): void {
    const agent = record.userAgent;
    const tag = this.rules.selfAgentTag.toLowerCase();
    const address = this.addressOf(record.address);
    if (address.self || (agent !== null && tag !== '' && agent.toLowerCase().includes(tag))) return;
    const read = agent === null ? { family: UNLOGGED_AGENT, bot: false } : this.agentOf(agent);
    const key = digest(`${record.address}|${read.family}`);
    const bot = read.bot || address.hosting || isScannerPath(cleanPath(record.path));
    if (bot) this.bots.add(key);
    else {
      this.people.add(key);
      this.visits.add(digest(`${day}|${record.address}|${read.family}`));
    }
  }

  result(): { people: number; scanners: number; visits: number } {
    let scanners = 0;
    for (const key of this.bots) if (!this.people.has(key)) scanners += 1;
    return { people: this.people.size, scanners, visits: this.visits.size };
  }
}
