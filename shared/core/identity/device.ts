import type { Campaign } from './campaign';

/** What a page was read with, from the agent family (no versions): lowercase browser, system and device type. */
export interface Device {
  browser: string;
  system: string;
  device: string;
}

/** An agent no parser knows (a library, a crawler, none): counted as this, never as its text. */
export const UNKNOWN_DEVICE: Device = { browser: 'other', system: 'other', device: 'unknown' };

const renamed: Record<string, string> = {
  'microsoft edge': 'edge',
  'samsung internet for android': 'samsung internet',
  'internet explorer': 'ie',
  'chrome os': 'chromeos',
  'mac os': 'macos',
  'opera touch': 'opera',
};

const DEVICE_TYPES = new Set(['desktop', 'mobile', 'tablet', 'tv']);

/** A name as kept: lowercase letters, digits, space, `.` and `-`, at most 32 characters; 'other' when none is left. */
const named = (raw: string | undefined): string => {
  const name = (raw ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9 .-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const kept = (renamed[name] ?? name).slice(0, 32).trim();
  return kept === '' ? 'other' : kept;
};

/**
 * The device an agent family (shared/core/identity/agent.ts: `browser|system|type|vendor|model`, versions already out)
 * reads as. A family that is not in that form is an agent no parser knew, and its text is never used.
 */
export function deviceOf(family: string): Device {
  const parts = family.split('|');
  if (parts.length < 3) return UNKNOWN_DEVICE;
  const type = (parts[2] ?? '').trim();
  return { browser: named(parts[0]), system: named(parts[1]), device: DEVICE_TYPES.has(type) ? type : 'unknown' };
}

/** What a queued hit carries of its visitor's audience, beside the identity: none of it names a person. */
export interface Audience extends Device {
  country: string;
  campaign: Campaign | null;
}
