import { describe, expect, it } from 'vitest';
import { clientAddress } from '../../shared/core/identity/address';

describe('the visitor address from X-Forwarded-For', () => {
  it('reads the rightmost entry with no trusted proxy: the connection the platform accepted', () => {
    expect(clientAddress('203.0.113.7', 0)).toBe('203.0.113.7');
    expect(clientAddress('198.51.100.1, 203.0.113.7', 0)).toBe('203.0.113.7');
  });

  it('reads the entry one further left for each trusted proxy hop', () => {
    expect(clientAddress('198.51.100.1, 203.0.113.7', 1)).toBe('198.51.100.1');
    expect(clientAddress('192.0.2.9, 198.51.100.1, 203.0.113.7', 1)).toBe('198.51.100.1');
    expect(clientAddress('192.0.2.9, 198.51.100.1, 203.0.113.7', 2)).toBe('192.0.2.9');
  });

  it('never reads the leftmost entry a client wrote itself', () => {
    // The client sent "X-Forwarded-For: 1.1.1.1"; the trusted proxy appended the client's real address, the platform the proxy's.
    expect(clientAddress('1.1.1.1, 198.51.100.1, 203.0.113.7', 1)).toBe('198.51.100.1');
    // With no proxy, a forged list is still read from the right.
    expect(clientAddress('1.1.1.1, 8.8.8.8, 203.0.113.7', 0)).toBe('203.0.113.7');
  });

  it('is null when the header holds fewer entries than the hops', () => {
    expect(clientAddress('203.0.113.7', 1)).toBeNull();
    expect(clientAddress('198.51.100.1, 203.0.113.7', 2)).toBeNull();
    expect(clientAddress('', 0)).toBeNull();
    expect(clientAddress(null, 0)).toBeNull();
    expect(clientAddress(undefined, 0)).toBeNull();
  });

  it('is null when the entry it reads is not an address, without falling back to another entry', () => {
    expect(clientAddress('198.51.100.1, banana, 203.0.113.7', 1)).toBeNull();
    expect(clientAddress('unknown, 203.0.113.7', 1)).toBeNull();
  });

  it('drops ports, IPv4 and bracketed IPv6', () => {
    expect(clientAddress('203.0.113.7:443', 0)).toBe('203.0.113.7');
    expect(clientAddress('[2001:db8::1]:443, 127.0.0.1:5555', 1)).toBe('2001:db8::1');
    expect(clientAddress('198.51.100.1:8080, 203.0.113.7:51234', 1)).toBe('198.51.100.1');
  });

  it('reads entries with any whitespace around them', () => {
    expect(clientAddress('  198.51.100.1 ,\t203.0.113.7  ', 0)).toBe('203.0.113.7');
    expect(clientAddress('  198.51.100.1 ,\t203.0.113.7  ', 1)).toBe('198.51.100.1');
    expect(clientAddress('198.51.100.1,203.0.113.7', 1)).toBe('198.51.100.1');
  });

  it('answers the canonical spelling, so one machine hashes the same however its address was written', () => {
    expect(clientAddress('2001:0DB8:0000:0000:0000:0000:0000:0001', 0)).toBe('2001:db8::1');
    expect(clientAddress('::ffff:203.0.113.7', 0)).toBe('203.0.113.7');
  });
});
