import { describe, expect, it } from 'vitest';
import { isNarrowingError } from '../../src/core/errors.js';
import { guardHandle, isGuardSession } from '../../src/guard/handle.js';
import { openGuardSync } from '../../src/guard/open.js';

const read = { tool: 'read_file', args: { path: 'src/a.ts' } };

describe('guardHandle', () => {
  it('opens a session from options on first use, once', async () => {
    const handle = guardHandle({ store: 'memory', probe: false });
    const session = handle.session();
    expect(isGuardSession(session)).toBe(true);
    expect(handle.session()).toBe(session);
    await handle.close();
  });

  it('leaves a session it was handed open when it closes', async () => {
    const session = openGuardSync({ store: 'memory', probe: false });
    const handle = guardHandle(session);
    await handle.close();
    expect(handle.session()).toBe(session);
    expect(session.check(read).verdict).toBe('allow');
    await session.close();
  });

  it('refuses to reopen a session it closed, with a USAGE error', async () => {
    const handle = guardHandle({ store: 'memory', probe: false });
    handle.session();
    await handle.close();
    let thrown: unknown;
    try {
      handle.session();
    } catch (error) {
      thrown = error;
    }
    expect(isNarrowingError(thrown) && thrown.code).toBe('USAGE');
  });

  it('opens nothing when closed before first use', async () => {
    const handle = guardHandle({ stateDir: '/nonexistent/never-created' });
    await expect(handle.close()).resolves.toBeUndefined();
  });
});
