import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, parseListenAddress } from '../../src/mcp/address.js';

describe('parseListenAddress', () => {
  it('reads HOST:PORT', () => {
    expect(parseListenAddress('0.0.0.0:8808')).toEqual({ host: '0.0.0.0', port: 8808 });
  });

  it('serves on 127.0.0.1 when only the port is given', () => {
    expect(parseListenAddress('8808')).toEqual({ host: '127.0.0.1', port: 8808 });
    expect(parseListenAddress(':8808')).toEqual({ host: '127.0.0.1', port: 8808 });
  });

  it('reads an IPv6 host in brackets', () => {
    expect(parseListenAddress('[::1]:9000')).toEqual({ host: '[::1]', port: 9000 });
  });

  it('refuses an address without a port, with an example', () => {
    expect(() => parseListenAddress('localhost')).toThrow(/HOST:PORT, such as 127\.0\.0\.1:8808/);
  });

  it('refuses a port above 65535', () => {
    expect(() => parseListenAddress('127.0.0.1:70000')).toThrow(/not an address/);
  });

  it('gives back any host name and port it was given', () => {
    const hostname = fc.stringMatching(/^[a-z0-9]([a-z0-9.-]{0,30}[a-z0-9])?$/);
    fc.assert(
      fc.property(hostname, fc.integer({ min: 0, max: 65_535 }), (host, port) => {
        expect(parseListenAddress(`${host}:${port}`)).toEqual({ host, port });
      }),
    );
  });

  it('never accepts text with spaces or a second colon outside brackets', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (left, right) => {
        const text = `${left}:${right}:1`;
        if (/^\[/.test(text)) return;
        expect(() => parseListenAddress(text)).toThrow();
      }),
    );
  });
});

describe('isLoopbackHost', () => {
  it('knows the names of this machine', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
  });

  it('does not mistake other addresses for loopback', () => {
    for (const host of ['0.0.0.0', '10.0.0.1', '::', 'localhost.example.com', '128.0.0.1']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});
