import type { Campaign } from './campaign';

/** Lowercase, no versions. */
export interface Device {
  browser: string;
  system: string;
  device: string;
}

/** Counted as this, never as its text. */
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

/** Lowercase letters, digits, space, `.` and `-`, at most 32; 'other' when none is left. */
const named = (raw: string | undefined): string => {
  const name = (raw ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9 .-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const kept = (renamed[name] ?? name).slice(0, 32).trim();
  return kept === '' ? 'other' : kept;
};

/** A family not in the form `browser|system|type|vendor|model` is an agent no parser knew, and its text is never used. */
export function deviceOf(family: string): Device {
  const parts = family.split('|');
  if (parts.length < 3) return UNKNOWN_DEVICE;
  const type = (parts[2] ?? '').trim();
  return { browser: named(parts[0]), system: named(parts[1]), device: DEVICE_TYPES.has(type) ? type : 'unknown' };
}

/** Plausible's buckets of the viewport's width in CSS pixels; the width itself is never queued. */
export function screenOf(width: number): string {
  if (width < 576) return 'phone';
  if (width < 992) return 'tablet';
  return width < 1440 ? 'laptop' : 'desktop';
}

/** None of it names a person. */
export interface Audience extends Device {
  country: string;
  campaign: Campaign | null;
}
