import { describe, expect, it } from 'vitest';
import { timingEnv } from '../../src/hooks/bench.js';

describe('bench hooks environment', () => {
  it('times hooks and bare starts without an extra CA bundle, keeping every other variable', () => {
    const env = timingEnv({
      PATH: '/usr/bin',
      HOME: '/home/dev',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
    });
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/dev' });
  });
});
