import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { isNarrowingError, type NarrowingError } from '../../src/core/errors.js';
import type { CheckResult, Proposal } from '../../src/core/types.js';
import { checkSafely, guardedCall, recordSafely } from '../../src/guard/guarded-call.js';
import { openGuardSync } from '../../src/guard/open.js';
import type { GuardSession } from '../../src/guard/session.js';

const ENOENT = "ENOENT: no such file or directory, open 'config/prod.yaml'";
const missingRead = toolCallToProposal('read_file', { path: 'config/prod.yaml' });

function memoryGuard(): GuardSession {
  return openGuardSync({ store: 'memory', probe: false });
}

/** A session whose engine throws, as a guard with a bug would. */
function brokenGuard(): GuardSession {
  const session = memoryGuard();
  return {
    ...session,
    check: () => {
      throw new TypeError("Cannot read properties of undefined (reading 'targets')");
    },
    record: () => {
      throw new RangeError('Maximum call stack size exceeded');
    },
  };
}

async function failingRead(): Promise<never> {
  throw new Error(ENOENT);
}

describe('guardedCall', () => {
  it('runs an allowed call and learns its failure, so the same call is refused next time', async () => {
    const guard = memoryGuard();
    const first = await guardedCall(guard, missingRead, failingRead);
    expect(first.status).toBe('threw');
    expect(first.status === 'threw' && first.record?.outcome.signature).toBe('file_not_found');

    let ran = false;
    const second = await guardedCall(guard, missingRead, async () => {
      ran = true;
      return 'port: 8080';
    });
    expect(ran).toBe(false);
    expect(second.status).toBe('refused');
    expect(second.status === 'refused' && second.message).toMatch(/^\[narrowing blocked this call/);
    expect(second.status === 'refused' && second.message).toContain('config/prod.yaml');
  });

  it('hands back what the call returned', async () => {
    const result = await guardedCall(memoryGuard(), missingRead, () => ({
      content: [{ type: 'text', text: 'port: 8080' }],
    }));
    expect(result).toMatchObject({ status: 'ran', value: { content: [{ text: 'port: 8080' }] } });
    expect(result.status === 'ran' && result.record?.outcome.success).toBe(true);
  });

  it('learns nothing from a timeout, which is not the call’s fault', async () => {
    const guard = memoryGuard();
    const fetch = toolCallToProposal('web_fetch', { url: 'https://api.example.com/v1/status' });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const result = await guardedCall(guard, fetch, async () => {
        throw new Error('Request timed out after 30000ms (ETIMEDOUT)');
      });
      expect(result.status).toBe('threw');
    }
    expect(guard.engine.getActiveConstraints()).toEqual([]);
  });

  it('attaches a warning to a warned call and still runs it', async () => {
    const guard = openGuardSync({
      store: 'memory',
      probe: false,
      policy: { detectors: { identicalResult: { warnAt: 2, blockAt: 9 } } },
    });
    const list = toolCallToProposal('list_directory', { path: 'src' });
    const answer = () => '[FILE] index.ts\n[FILE] loop.ts';
    await guardedCall(guard, list, answer);
    const second = await guardedCall(guard, list, answer);
    expect(second.status).toBe('ran');
    expect(second.status === 'ran' && second.warning).toMatch(/^\[narrowing warning/);
  });

  it('lets the call run when the guard fails to check it, and reports the fault', async () => {
    const faults: NarrowingError[] = [];
    const result = await guardedCall(brokenGuard(), missingRead, () => 'port: 8080', undefined, {
      reportFault: (fault) => faults.push(fault),
    });
    expect(result).toMatchObject({ status: 'ran', value: 'port: 8080' });
    expect(faults.map((fault) => fault.code)).toEqual(['GUARD_FAULT', 'GUARD_FAULT']);
    expect(faults[0]?.message).toBe(
      "the guard failed to check a call to read_file, letting it run: Cannot read properties of undefined (reading 'targets')",
    );
  });

  it('refuses the call when the guard fails and the caller asked to fail closed', async () => {
    let ran = false;
    const result = await guardedCall(
      brokenGuard(),
      missingRead,
      () => {
        ran = true;
        return 'port: 8080';
      },
      undefined,
      { onFault: 'closed' },
    );
    expect(ran).toBe(false);
    expect(result.status).toBe('refused');
    expect(result.status === 'refused' && isNarrowingError(result.fault)).toBe(true);
    expect(result.status === 'refused' && result.message).toMatch(/could not check this call/);
  });

  it('does not run a call whose signal was aborted before it started', async () => {
    let ran = false;
    const controller = new AbortController();
    controller.abort(new Error('the user pressed Esc'));
    const result = await guardedCall(memoryGuard(), missingRead, () => (ran = true), undefined, {
      signal: controller.signal,
    });
    expect(ran).toBe(false);
    expect(result.status).toBe('cancelled');
  });

  it('learns nothing from a call abandoned before its result arrived', async () => {
    const guard = memoryGuard();
    const controller = new AbortController();
    const result = await guardedCall(
      guard,
      missingRead,
      async () => {
        controller.abort();
        throw new DOMException('This operation was aborted', 'AbortError');
      },
      undefined,
      { signal: controller.signal },
    );
    expect(result.status).toBe('cancelled');
    expect(guard.check(missingRead).verdict).toBe('allow');
  });

  it('learns from a result that arrived even though the call was cancelled meanwhile', async () => {
    const guard = memoryGuard();
    const controller = new AbortController();
    const result = await guardedCall(
      guard,
      missingRead,
      async () => {
        controller.abort();
        return { content: [{ type: 'text', text: ENOENT }], isError: true };
      },
      undefined,
      { signal: controller.signal },
    );
    expect(result.status).toBe('ran');
    expect(guard.check(missingRead).verdict).toBe('block');
  });
});

describe('checkSafely and recordSafely', () => {
  it('turn a throwing guard into a fault with a stable code instead of an exception', () => {
    const guard = brokenGuard();
    const check = checkSafely(guard, missingRead);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.fault.code).toBe('GUARD_FAULT');
    expect(recordSafely(guard, { proposal: missingRead, success: false, error: ENOENT })).toBeUndefined();
  });

  it('pass the verdict through when the guard works', () => {
    const check = checkSafely(memoryGuard(), missingRead as Proposal);
    expect(check.ok && (check.check as CheckResult).verdict).toBe('allow');
  });
});
