import Bowser from 'bowser';
import { isbot } from 'isbot';
import { deviceOf, type Device } from './device';

const versionNumbers = /\d+(?:[._]\d+)*/g;

/**
 * Version numbers are taken out, so a browser that updates itself stays the same person.
 * An agent no parser knows keeps its text without digits.
 */
export function agentFamily(userAgent: string): string {
  const agent = userAgent.trim();
  if (agent === '') return 'none';
  const parsed = Bowser.parse(agent);
  const browser = parsed.browser.name;
  const os = parsed.os.name;
  if (browser && os) {
    return [browser, os, parsed.platform.type ?? 'unknown', parsed.platform.vendor ?? '', parsed.platform.model ?? '']
      .map((part) => part.replace(versionNumbers, '').trim().toLowerCase())
      .join('|');
  }
  return agent.replace(versionNumbers, '').replace(/\s+/g, ' ').toLowerCase();
}

/** Crawlers, link previews, HTTP libraries, or no agent at all. */
export function isBotAgent(userAgent: string | null | undefined): boolean {
  const agent = (userAgent ?? '').trim();
  return agent === '' || isbot(agent);
}

export interface AgentVerdict {
  readonly family: string;
  readonly bot: boolean;
  readonly device: Readonly<Device>;
}

export function readAgent(userAgent: string): AgentVerdict {
  const family = agentFamily(userAgent);
  return Object.freeze({ family, bot: isBotAgent(userAgent), device: Object.freeze(deviceOf(family)) });
}

export interface AgentReader {
  read(userAgent: string): AgentVerdict;
}

/** For a unit test of another rule or a one-off script. */
export const UNCACHED_AGENTS: AgentReader = { read: readAgent };

/** A site's hits repeat a few hundred agents, and 2,000 short texts are under a megabyte. */
export const AGENT_CACHE_SIZE = 2000;

/** Longer agents are not remembered, so a caller cannot fill memory with made-up ones; a browser's is 100 to 300. */
export const MAX_REMEMBERED_AGENT = 512;

export interface AgentCache extends AgentReader {
  readonly size: number;
}

interface Held {
  agent: string;
  verdict: AgentVerdict;
  newer: Held | null;
  older: Held | null;
}

/**
 * Remembers the last `capacity` verdicts, since parsing an agent costs several times the rest of a hit's rules.
 * It holds agent texts and verdicts only, nothing of a request.
 */
export function agentVerdicts(capacity: number = AGENT_CACHE_SIZE): AgentCache {
  if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`an agent cache holds at least one agent, not ${capacity}`);
  const held = new Map<string, Held>();
  let newest: Held | null = null;
  let oldest: Held | null = null;
  const unlink = (entry: Held) => {
    if (entry.newer === null) newest = entry.older;
    else entry.newer.older = entry.older;
    if (entry.older === null) oldest = entry.newer;
    else entry.older.newer = entry.newer;
  };
  const toFront = (entry: Held) => {
    entry.newer = null;
    entry.older = newest;
    if (newest === null) oldest = entry;
    else newest.newer = entry;
    newest = entry;
  };
  return {
    get size() {
      return held.size;
    },
    read(userAgent) {
      const known = held.get(userAgent);
      if (known !== undefined) {
        if (known !== newest) {
          unlink(known);
          toFront(known);
        }
        return known.verdict;
      }
      const verdict = readAgent(userAgent);
      if (userAgent.length > MAX_REMEMBERED_AGENT) return verdict;
      if (held.size >= capacity && oldest !== null) {
        const forgotten: Held = oldest;
        unlink(forgotten);
        held.delete(forgotten.agent);
      }
      // A slice would keep its whole source text alive, such as a log line or a request body.
      const agent = Buffer.from(userAgent, 'utf16le').toString('utf16le');
      const entry: Held = { agent, verdict, newer: null, older: null };
      toFront(entry);
      held.set(agent, entry);
      return verdict;
    },
  };
}
