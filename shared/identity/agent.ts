import Bowser from 'bowser';
import { isbot } from 'isbot';

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
