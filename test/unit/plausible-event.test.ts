import { describe, expect, it } from 'vitest';
import { readPlausibleEvent } from '../../shared/ingest/plausible-event';

const sites = [
  { name: 'blog.example', origins: ['https://blog.example'], zone: 'UTC' },
  { name: 'docs', origins: ['https://docs.example.org'], zone: 'UTC' },
];
const event = (fields: Record<string, unknown>) => ({
  n: 'pageview',
  u: 'https://blog.example/a?utm_source=x&q=1',
  d: 'blog.example',
  ...fields,
});

describe("Plausible's Events API read as the beacon", () => {
  it('reads a pageview as a page load of the site named by d, by name or by its origin host', () => {
    const read = readPlausibleEvent(event({ r: 'https://news.example/' }), sites);
    expect(read).toEqual({ ok: true, value: expect.objectContaining({ site: 'blog.example', referrer: 'https://news.example/' }) });
    const byHost = readPlausibleEvent(event({ d: 'docs.example.org', u: 'https://docs.example.org/guide' }), sites);
    expect(byHost.ok && byHost.value?.site).toBe('docs');
  });

  it('keeps the hash route only for hash routing', () => {
    const plain = readPlausibleEvent(event({ u: 'https://blog.example/#/settings' }), sites);
    const hashed = readPlausibleEvent(event({ u: 'https://blog.example/#/settings', h: 1 }), sites);
    expect(plain.ok && plain.value?.path).toBe('/');
    expect(hashed.ok && hashed.value?.path).toBe('/#/settings');
  });

  it('reads a custom event with its props as strings, and leaves out keys a beacon cannot carry', () => {
    const read = readPlausibleEvent(event({ n: 'signup', p: { plan: 'pro', seats: 3, trial: true, 'Bad Key': 'x' } }), sites);
    expect(read.ok && read.value).toMatchObject({ event: 'signup', props: { plan: 'pro', seats: '3', trial: 'true' } });
  });

  it("reads an engagement event's time and scroll as the snippet's engagement, on its page", () => {
    const read = readPlausibleEvent(event({ n: 'engagement', e: 1200, sd: 40 }), sites);
    expect(read.ok && read.value).toMatchObject({ path: '/a?utm_source=x', engagement: { ms: 1200, scroll: 40 } });
  });

  it("refuses revenue, an unknown domain and a name headcount cannot keep, each naming Plausible's field", () => {
    const path = (fields: Record<string, unknown>) => {
      const read = readPlausibleEvent(event(fields), sites);
      return read.ok ? null : read.failure.issues?.[0]?.path;
    };
    expect(path({ n: 'purchase', $: { amount: 10, currency: 'EUR' } })).toBe('revenue');
    expect(path({ d: 'elsewhere.example' })).toBe('d');
    expect(path({ n: 'Signup Click' })).toBe('n');
    expect(path({ u: 'not a url' })).toBe('u');
  });
});
