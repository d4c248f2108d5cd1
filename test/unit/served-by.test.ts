import { describe, expect, it } from 'vitest';
import { serverHitSchema, servedByOf } from '../../shared/contract/hits';
import { importHitSchema } from '../../shared/contract/import';
import { queuedHitSchema } from '../../shared/core/message';

const hit = { address: '203.0.113.9', path: '/' };
const queued = {
  at: '2026-10-23T10:00:00.000Z',
  token: '0'.repeat(32),
  person: '1'.repeat(32),
  network: '203.0.113.x',
  path: '/',
  bot: false,
  self: false,
  source: null,
  subject: null,
};

describe('the server that served a hit is served_by, and its first name store is still taken', () => {
  it('reads served_by, then store, then site, from a server hit', () => {
    const read = (extra: object) => {
      const parsed = serverHitSchema.safeParse({ ...hit, ...extra });
      if (!parsed.success) throw parsed.error;
      return servedByOf(parsed.data);
    };
    expect(read({ served_by: 'shop' })).toBe('shop');
    expect(read({ store: 'shop' })).toBe('shop');
    expect(read({ served_by: 'shop', store: 'blog' })).toBe('shop');
    expect(read({})).toBe('site');
  });

  it('refuses a bad served_by naming the field', () => {
    const parsed = serverHitSchema.safeParse({ ...hit, served_by: 'Not A Server' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['served_by']);
  });

  it('takes both names on an imported hit', () => {
    const at = '2026-10-23T10:00:00Z';
    for (const extra of [{ served_by: 'shop' }, { store: 'shop' }]) {
      const parsed = importHitSchema.safeParse({ at, address: '203.0.113.9', path: '/', ...extra });
      expect(parsed.success && servedByOf(parsed.data)).toBe('shop');
    }
  });

  it('reads a message queued before the rename, its store read as served_by', () => {
    expect(queuedHitSchema.parse({ ...queued, store: 'shop' }).served_by).toBe('shop');
    expect(queuedHitSchema.parse({ ...queued, served_by: 'shop' }).served_by).toBe('shop');
    expect(queuedHitSchema.safeParse(queued).success).toBe(false);
  });
});
