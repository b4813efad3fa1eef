import { describe, expect, it } from 'vitest';
import { runMcpCommand } from '../../src/cli/commands/mcp.js';
import { captureIO } from '../cli/commands/cli-io.js';

/** Options that pass the token check and then stop the command (exit 2) before it serves. */
const stopsEarly = { http: '127.0.0.1:0', callTimeout: 'soon' };

describe('narrowing-guard mcp --token', () => {
  it('warns that a token given on the command line shows in ps, and names NARROWING_TOKEN', async () => {
    const { io, stderr } = captureIO();
    expect(await runMcpCommand(['node', 'server.js'], { ...stopsEarly, token: 'flag-t0ken-42' }, io)).toBe(2);
    expect(stderr()).toContain('--token puts the token on the command line, where `ps`');
    expect(stderr()).toContain('set NARROWING_TOKEN in the environment instead');
    expect(stderr()).not.toContain('flag-t0ken-42');
  });

  it('says nothing of ps when the token comes from NARROWING_TOKEN', async () => {
    const { io, stderr } = captureIO({ env: { NARROWING_TOKEN: 'env-t0ken-42' } });
    expect(await runMcpCommand(['node', 'server.js'], { ...stopsEarly, token: 'env-t0ken-42' }, io)).toBe(2);
    expect(stderr()).not.toContain('ps');
    expect(stderr()).toContain('--call-timeout');
  });
});
