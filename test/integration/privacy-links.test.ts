import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Container } from '@azure/cosmos';
import { memoryLogger } from '../../shared/core/ports/logger';
import { containerOf } from '../support/cosmos';
import { startTestHost, type TestHost } from '../support/host';
import { post } from '../support/http';

/**
 * The privacy line for shared links, as a property: whatever a link is made with and however it is used (its token
 * right or guessed, its password right or wrong), no stored document, answer to the list or log line holds a token or
 * a password, and a link's document holds only the fields it is declared with.
 */

const LINK_FIELDS = ['created_at', 'days', 'expires_at', 'filters', 'id', 'kind', 'label', 'password', 'pk', 'ref', 'revoked_at', 'site'];

describe('privacy: no shared link token or password is kept or logged', () => {
  let t: TestHost;
  let container: Container;
  const logger = memoryLogger();

  beforeAll(async () => {
    t = await startTestHost({ queues: false, env: { TRUSTED_PROXY_HOPS: '1' }, overrides: { logger } });
    container = await containerOf(t.env);
  });
  afterAll(() => t?.stop());

  // Up to three password checks a link at scrypt N 2^17: on a loaded machine they take more than the default minute.
  it('keeps only keyed hashes, whatever the links and their use', async () => {
    const secrets: string[] = [];
    const operator = { 'x-operator-key': t.env.OPERATOR_KEY! };
    let address = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          label: fc.string({ maxLength: 80 }),
          password: fc.option(fc.string({ minLength: 8, maxLength: 40 }), { nil: null }),
          days: fc.constantFrom(null, '7', 'all'),
          wrong: fc.string({ minLength: 8, maxLength: 40 }),
        }),
        async (link) => {
          const made = await post(`${t.host.url}/api/admin/links`, { site: 'site.example', ...link, wrong: undefined }, operator);
          expect(made.status).toBe(201);
          const token = made.json.token as string;
          secrets.push(token, ...(link.password === null ? [] : [link.password]));
          // Each run from an address of its own, so its wrong tries do not slow the next.
          const from = `198.51.100.${(address += 1)}`;
          const open = (headers: Record<string, string>) =>
            fetch(`${t.host.url}/api/shared/activity`, { headers: { 'x-share-token': token, 'x-forwarded-for': from, ...headers } });
          const right = await open(link.password === null ? {} : { 'x-share-password': link.password });
          expect(right.status).toBe(200);
          if (link.password !== null && link.wrong !== link.password)
            expect((await open({ 'x-share-password': link.wrong })).status).toBe(401);
          expect((await open({ 'x-share-token': token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) })).status).toBe(401);
        },
      ),
      { numRuns: 12, seed: 20261203 },
    );
    const { resources } = await container.items.readAll<Record<string, unknown>>().fetchAll();
    const links = resources.filter((doc) => doc.kind === 'shared-link');
    expect(links).toHaveLength(12);
    for (const doc of links)
      expect(
        Object.keys(doc)
          .filter((key) => !key.startsWith('_'))
          .sort(),
      ).toEqual(LINK_FIELDS);
    const listed = await (await fetch(`${t.host.url}/api/admin/links`, { headers: operator })).text();
    const kept = JSON.stringify(resources);
    const logged = logger.lines.join('\n');
    // A password of a few characters could occur in other text by chance; every token and every longer password cannot.
    for (const secret of secrets.filter((one) => one.length >= 12)) {
      expect(kept).not.toContain(JSON.stringify(secret).slice(1, -1));
      expect(listed).not.toContain(JSON.stringify(secret).slice(1, -1));
      expect(logged).not.toContain(secret);
    }
  }, 180_000);
});
