/**
 * Arguments and results the guard cannot read (a revoked proxy, a getter that throws) and results
 * too large to serialise whole: the call runs and returns what it returned, and the guard reports
 * its own fault instead of throwing in the caller's hands.
 */
import { describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import type { NarrowingError } from '../../src/core/errors.js';
import { guardedCall, recordSafely } from '../../src/guard/guarded-call.js';
import { openGuardSync } from '../../src/guard/open.js';

function memoryGuard() {
  return openGuardSync({ store: 'memory', probe: false });
}

function revokedArguments(): object {
  const { proxy, revoke } = Proxy.revocable({ path: 'config/prod.yaml' }, {});
  revoke();
  return proxy;
}

/** What an ORM row or a lazy SDK object can look like: reading one of its fields throws. */
function resultWithThrowingGetter() {
  return {
    id: 'row-7',
    get content(): string {
      throw new Error('lazy field read after the connection closed');
    },
  };
}

describe('values the guard cannot read', () => {
  it('builds a proposal from revoked-proxy arguments instead of throwing', () => {
    expect(() => toolCallToProposal('read_file', revokedArguments())).not.toThrow();
  });

  it('runs a call whose arguments are a revoked proxy, and reports the fault of its check', async () => {
    const faults: NarrowingError[] = [];
    let ran = 0;
    const result = await guardedCall(
      memoryGuard(),
      toolCallToProposal('read_file', revokedArguments()),
      () => {
        ran += 1;
        return 'port: 8080';
      },
      undefined,
      { reportFault: (fault) => faults.push(fault) },
    );

    expect(ran).toBe(1);
    expect(result).toMatchObject({ status: 'ran', value: 'port: 8080' });
    expect(faults[0]?.code).toBe('GUARD_FAULT');
  });

  it('returns a result with a throwing getter as it is, and reports that it could not record it', async () => {
    const faults: NarrowingError[] = [];
    const row = resultWithThrowingGetter();
    const result = await guardedCall(
      memoryGuard(),
      toolCallToProposal('read_row', { id: 'row-7' }),
      () => row,
      undefined,
      { reportFault: (fault) => faults.push(fault) },
    );

    expect(result.status).toBe('ran');
    expect(result.status === 'ran' && result.value).toBe(row);
    expect(result.status === 'ran' && result.fault?.message).toMatch(
      /^the guard failed to record a call to .*lazy field read after the connection closed/,
    );
    expect(faults).toHaveLength(1);
  });

  it('records through a function, so an outcome that cannot be built is a reported fault', () => {
    const faults: NarrowingError[] = [];
    const record = recordSafely(
      memoryGuard(),
      () => toolCallToOutcome('read_row', { id: 'row-7' }, resultWithThrowingGetter()),
      { reportFault: (fault) => faults.push(fault) },
    );

    expect(record).toBeUndefined();
    expect(faults[0]?.message).toContain('lazy field read after the connection closed');
  });
});

describe('large results', () => {
  it('reads at most the first million characters of a 10 MB Buffer’s JSON', () => {
    const buffer = Buffer.alloc(10 * 1024 * 1024, 0xab);
    const outcome = toolCallToOutcome('read_file', { path: 'assets/model.bin' }, buffer);

    expect(outcome.content?.length).toBeLessThan(1_000_100);
    expect(outcome.content).toMatch(/^\{"type":"Buffer","data":\[171,171,/);
    expect(outcome.content).toMatch(/… \[cut: the first 1000000 characters of its JSON\]$/);
  });

  it('keeps a small Buffer’s JSON exactly as JSON.stringify writes it', () => {
    const buffer = Buffer.from('port: 8080\n');
    const outcome = toolCallToOutcome('read_file', { path: 'config/dev.yaml' }, buffer);
    expect(outcome.content).toBe(JSON.stringify(buffer));
  });
});
