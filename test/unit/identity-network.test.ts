import { describe, expect, it } from 'vitest';
import { canonicalAddress, networkOf, withoutPort } from '../../shared/core/identity/network';

describe('the network cut', () => {
  it('cuts IPv4 to three octets', () => {
    expect(networkOf('203.0.113.7')).toBe('203.0.113.x');
    expect(networkOf('198.51.100.250')).toBe('198.51.100.x');
    expect(networkOf('0.0.0.0')).toBe('0.0.0.x');
  });

  it('cuts IPv6 to its first 48 bits, normalised', () => {
    expect(networkOf('2001:db8::1')).toBe('2001:db8:0:x');
    expect(networkOf('2001:db8:abcd:12::1')).toBe('2001:db8:abcd:x');
    expect(networkOf('2001:DB8:ABCD:0012:0:0:0:1')).toBe('2001:db8:abcd:x');
    expect(networkOf('::1')).toBe('0:0:0:x');
  });

  it('cuts the expanded and the compressed spelling of one IPv6 address the same', () => {
    expect(networkOf('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(networkOf('2001:db8::1'));
    expect(canonicalAddress('2001:0db8:0000:0000:0000:0000:0000:0001')).toBe(canonicalAddress('2001:db8::1'));
    expect(canonicalAddress('2001:0DB8::0001')).toBe('2001:db8::1');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address it carries', () => {
    expect(networkOf('::ffff:203.0.113.7')).toBe('203.0.113.x');
    expect(networkOf('::ffff:cb00:7107')).toBe('203.0.113.x');
    expect(networkOf('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.x');
    expect(canonicalAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('cuts anything unreadable to x', () => {
    for (const raw of [
      'banana',
      '999.1.1.1',
      '127.1',
      '',
      '   ',
      '1.2.3',
      '1.2.3.4.5',
      '0x7f.0.0.1',
      '01.2.3.4',
      '2001:db8::g',
      ':::',
      '3405803783',
      '0x7f000001',
      'www.example.com',
      null,
      undefined,
    ]) {
      expect(networkOf(raw), String(raw)).toBe('x');
    }
    expect(canonicalAddress('banana')).toBeNull();
    expect(canonicalAddress('127.1')).toBeNull();
  });

  it('drops a port after an address before cutting', () => {
    expect(withoutPort('203.0.113.7:443')).toBe('203.0.113.7');
    expect(withoutPort('[2001:db8::1]:443')).toBe('2001:db8::1');
    expect(withoutPort('[2001:db8::1]')).toBe('2001:db8::1');
    expect(networkOf('203.0.113.7:443')).toBe('203.0.113.x');
    expect(networkOf('[2001:db8::1]:443')).toBe('2001:db8:0:x');
    expect(canonicalAddress('203.0.113.7:443')).toBe('203.0.113.7');
    expect(canonicalAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
  });

  it('reads a bare IPv6 address ending in a group as an address, not as an address and a port', () => {
    expect(canonicalAddress('2001:db8::1:443')).toBe('2001:db8::1:443');
  });

  it('drops an IPv6 zone', () => {
    expect(canonicalAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(networkOf('fe80::1%eth0')).toBe('fe80:0:0:x');
  });

  it('never keeps the last octet or the interface bits', () => {
    expect(networkOf('203.0.113.7')).not.toContain('.7');
    expect(networkOf('2001:db8:abcd:12:3456:789a:bcde:f012')).toBe('2001:db8:abcd:x');
  });
});
