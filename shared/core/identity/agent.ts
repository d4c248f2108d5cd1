import Bowser from 'bowser';
import { isbot } from 'isbot';
import { deviceOf, type Device } from './device';

const versionNumbers = /\d+(?:[._]\d+)*/g;

/**
 * The agent with every version number taken out: browser family, platform and device type, so a browser that
 * updates itself stays the same person while Chrome and Firefox, or desktop and Android, stay apart. An agent
 * no parser knows (a library, a crawler) keeps its text with the digits removed.
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

/** Whether the agent names a bot: crawlers, link-preview fetchers, HTTP libraries, or no agent at all. */
export function isBotAgent(userAgent: string | null | undefined): boolean {
  const agent = (userAgent ?? '').trim();
  return agent === '' || isbot(agent);
}

/** All an agent says, read once: its family (for the person hash), whether it names a bot, and its device. */
export interface AgentVerdict {
  readonly family: string;
  readonly bot: boolean;
  readonly device: Readonly<Device>;
}

/** The verdict of an agent, read afresh: agentFamily, isBotAgent and deviceOf of its family. */
export function readAgent(userAgent: string): AgentVerdict {
  const family = agentFamily(userAgent);
  return Object.freeze({ family, bot: isBotAgent(userAgent), device: Object.freeze(deviceOf(family)) });
}

/** Reads what an agent says. */
export interface AgentReader {
  read(userAgent: string): AgentVerdict;
}

/** Reads every agent afresh (a unit test of another rule, a one-off script): the same answers as agentVerdicts. */
export const UNCACHED_AGENTS: AgentReader = { read: readAgent };

/** The agents a process remembers by default: a site's hits repeat a few hundred; 2,000 short texts are under a megabyte. */
export const AGENT_CACHE_SIZE = 2000;

/**
 * An agent longer than this is read afresh and not remembered, so the cache holds at most AGENT_CACHE_SIZE short texts
 * (a browser's agent is 100 to 300 characters): a caller cannot fill memory with long made-up agents.
 */
export const MAX_REMEMBERED_AGENT = 512;

/** A reader that remembers, and can say how many agents it holds. */
export interface AgentCache extends AgentReader {
  readonly size: number;
}

/** One remembered agent, in the list from the most recently read (`newer` null) to the least (`older` null). */
interface Held {
  agent: string;
  verdict: AgentVerdict;
  newer: Held | null;
  older: Held | null;
}

/**
 * The verdicts of the last `capacity` agents read (least recently read forgotten first), since a site's hits repeat a
 * few hundred agents: parsing one (bowser, then isbot's pattern) costs several times the rest of a hit's rules, and a
 * remembered one is a map lookup and a move to the front of a list (a Map's delete and set costs ten times more).
 * Built once per process by the composition root (the identity rules' `agents`). It holds agent texts and what they
 * say, nothing else: no address, nothing of a request, and nothing is written out.
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
      // Kept as a string of its own: an agent sliced out of a larger text (a log line's chunk, a request's body) would
      // keep that whole text alive for as long as it is remembered.
      const agent = Buffer.from(userAgent, 'utf16le').toString('utf16le');
      const entry: Held = { agent, verdict, newer: null, older: null };
      toFront(entry);
      held.set(agent, entry);
      return verdict;
    },
  };
}
