import { UNCACHED_AGENTS, type AgentReader, type AgentVerdict } from '../core/identity/agent';
import type { BotReason } from '../core/identity/who';
import type { HostingNetworks } from '../core/identity/network-table';
import { automationSignal, type RequestSignals } from '../core/identity/signals';
import { inNetworks, isLoopback, keptNetwork } from '../core/identity/network';
import { cleanPath, isAsset, isIgnoredPath, isScannerPath } from '../core/identity/paths';
import { referrerHost } from '../core/identity/referrer';
import { dailyToken, isoInstant, personHash } from '../core/identity/tokens';
import { audienceOf } from '../core/identity/audience';
import type { CountryLookup } from '../core/identity/country';
import type { QueuedHit } from '../core/message';

/** It holds the address and agent only until classified. */
export interface SeenRequest {
  at: Date;
  address: string | null;
  userAgent: string;
  path: string;
  referrer: string | null;
  served_by: string;
  pageLoad: boolean;
  subject: string | null;
  operator: boolean;
  /** Cookie mode only: the keyed hash the visitor cookie stands for. */
  visitor?: string;
  /** Its props are already checked to carry no person. */
  event?: string;
  props?: Record<string, string>;
  /** On /api/hits, those the site's server forwarded. */
  signals?: RequestSignals | null;
  /** A log that records no agent: the person is the address alone, while an empty logged agent is still a bot's. */
  agentUnlogged?: boolean;
  site?: string;
}

export interface IdentityRules {
  hashKey: string;
  selfNetworks: readonly string[];
  selfAgentTag: string;
  ignoredPaths: readonly string[];
  /** Without it every hit's country is `XX`. */
  countries?: CountryLookup;
  /** Without it no network is hosting. */
  networks?: HostingNetworks;
  /** Remembered for the process; without it each agent is read afresh. */
  agents?: AgentReader;
}

export const UNLOGGED_AGENT = 'unlogged';

/** `too-old`: its day's secret is gone, so it can no longer join its visit. */
export type Classified = { counted: true; hit: QueuedHit } | { counted: false; reason: 'asset' | 'ignored-path' | 'too-old' };

export function isSelf(request: SeenRequest, rules: IdentityRules): boolean {
  if (request.operator) return true;
  if (rules.selfAgentTag && request.userAgent.toLowerCase().includes(rules.selfAgentTag.toLowerCase())) return true;
  if (request.address === null) return false;
  return isLoopback(request.address) || inNetworks(request.address, rules.selfNetworks);
}

const agentOf = (request: SeenRequest, rules: IdentityRules): AgentVerdict | null =>
  request.agentUnlogged ? null : (rules.agents ?? UNCACHED_AGENTS).read(request.userAgent);

/** First match by agent, path, network, then signals. */
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

/** The address and the agent are read here and go no further; `daySecret` is the secret of the request's day. */
export function classify(request: SeenRequest, rules: IdentityRules, daySecret: string): Classified {
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
      token: dailyToken(daySecret, address, family),
      person: self ? null : (request.visitor ?? personHash(rules.hashKey, address, family)),
      network: keptNetwork(request.address),
      path,
      served_by: request.served_by,
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
