import { UNCACHED_AGENTS, type AgentReader, type AgentVerdict } from '../core/identity/agent';
import type { BotReason } from '../core/identity/kinds';
import type { HostingNetworks } from '../core/identity/network-table';
import { automationSignal, type RequestSignals } from '../core/identity/signals';
import { inNetworks, isLoopback, networkOf } from '../core/identity/network';
import { cleanPath, isAsset, isIgnoredPath, isScannerPath } from '../core/identity/paths';
import { referrerHost } from '../core/identity/referrer';
import { dailyToken, isoInstant, personHash } from '../core/identity/tokens';
import { audienceOf } from '../core/identity/audience';
import type { CountryLookup } from '../core/identity/country';
import type { QueuedHit } from '../core/message';

/** One request the site served, as the ingest endpoints read it; it holds the address and agent only until classified. */
export interface SeenRequest {
  at: Date;
  /** The canonical address, or null when none could be read. */
  address: string | null;
  userAgent: string;
  path: string;
  referrer: string | null;
  store: string;
  pageLoad: boolean;
  subject: string | null;
  /** Whether the request presented the operator key or carried the operator cookie. */
  operator: boolean;
  /** In cookie mode, the identity the visitor cookie stands for (a keyed hash, shared/ingest/subjects/cookie.ts); else the person hash is. */
  visitor?: string;
  /** An event's name (never a page load), and its props, already checked to carry no person. */
  event?: string;
  props?: Record<string, string>;
  /** The headers a browser sends (a beacon's own; on /api/hits, those the site's server forwarded); null when not known. */
  signals?: RequestSignals | null;
  /**
   * The request comes from a log that records no agent (the common log format): its agent is not judged, and the
   * person is the address alone (the agent family `unlogged`). An empty agent that was logged is a bot's, as ever.
   */
  agentUnlogged?: boolean;
  /** The site that served it (SITES); absent where one site is all there is to name. */
  site?: string;
}

/** The settings the identity rules read. */
export interface IdentityRules {
  hashKey: string;
  selfNetworks: readonly string[];
  selfAgentTag: string;
  ignoredPaths: readonly string[];
  /** Where an address is (its country code only); without it every hit's country is `XX`. */
  countries?: CountryLookup;
  /** The hosting networks' table (the composition root's); without it no network is hosting. */
  networks?: HostingNetworks;
  /** What each agent says, remembered for the process (the composition root's agentVerdicts); without it, read afresh. */
  agents?: AgentReader;
}

/** The agent family of a request from a log that records no agent. */
export const UNLOGGED_AGENT = 'unlogged';

export type Classified = { counted: true; hit: QueuedHit } | { counted: false; reason: 'asset' | 'ignored-path' };

/** Whether the request is the site reading itself: loopback, an own network, the self tag, or the operator. */
export function isSelf(request: SeenRequest, rules: IdentityRules): boolean {
  if (request.operator) return true;
  if (rules.selfAgentTag && request.userAgent.toLowerCase().includes(rules.selfAgentTag.toLowerCase())) return true;
  if (request.address === null) return false;
  return isLoopback(request.address) || inNetworks(request.address, rules.selfNetworks);
}

/** What the request's agent says; null for a request from a log that records no agent. */
const agentOf = (request: SeenRequest, rules: IdentityRules): AgentVerdict | null =>
  request.agentUnlogged ? null : (rules.agents ?? UNCACHED_AGENTS).read(request.userAgent);

/**
 * Why the request looks like a bot, first match by agent, path, network, then signals; null for a person's request.
 * `agent` is what its agent says, when classify has read it already.
 */
export function botReason(
  request: SeenRequest,
  path: string,
  rules: IdentityRules,
  agent: AgentVerdict | null = agentOf(request, rules),
): BotReason | null {
  if (agent?.bot) return 'agent';
  if (isScannerPath(path)) return 'path';
  if (request.address !== null && rules.networks?.hostingAsn(request.address) != null) return 'network';
  if (request.signals && automationSignal(request.userAgent, request.signals) !== null) return 'signals';
  return null;
}

/**
 * The request made into a hit that names nobody, or the reason it is not counted. The address and the agent are read
 * here and go no further: the hit keeps a daily token, a person hash (none for self), the network, the bot flag and
 * its reason (never the agent, the address or a header).
 */
export function classify(request: SeenRequest, rules: IdentityRules): Classified {
  const path = cleanPath(request.path);
  if (isAsset(path)) return { counted: false, reason: 'asset' };
  if (isIgnoredPath(path, rules.ignoredPaths)) return { counted: false, reason: 'ignored-path' };
  const address = request.address ?? 'x';
  const self = isSelf(request, rules);
  const agent = agentOf(request, rules);
  const family = agent?.family ?? UNLOGGED_AGENT;
  const reason = botReason(request, path, rules, agent);
  return {
    counted: true,
    hit: {
      at: isoInstant(request.at),
      token: dailyToken(rules.hashKey, address, request.at),
      person: self ? null : (request.visitor ?? personHash(rules.hashKey, address, family)),
      network: networkOf(request.address),
      path,
      store: request.store,
      bot: reason !== null,
      reason,
      self,
      source: referrerHost(request.referrer, request.pageLoad),
      page_load: request.pageLoad,
      subject: request.subject,
      ...audienceOf(request, family, rules.countries, agent?.device),
      ...(request.event === undefined ? {} : { event: request.event, ...(request.props === undefined ? {} : { props: request.props }) }),
      ...(request.site === undefined ? {} : { site: request.site }),
    },
  };
}
