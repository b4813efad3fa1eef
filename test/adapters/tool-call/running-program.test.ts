/**
 * A command left running (Codex's `exec_command` returning before it ends) is asked about through a
 * tool that types into it (`write_stdin`): typing nothing reads what it printed since, a poll judged
 * by the poll rules; typing something runs it, with effects nobody knows. Codex's header around each
 * answer (a chunk id, the wall time) differs on every call and says nothing about the command.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToOutcome, toolCallToProposal } from '../../../src/adapters/tool-call/convert.js';
import { NarrowingLoop } from '../../../src/index.js';
import { adapter } from './helpers.js';

const SESSION = 28178;
const POLL = { session_id: SESSION, chars: '', yield_time_ms: 1000, max_output_tokens: 12000 };

/** Codex's answer for a command still running, the `call`-th time it is asked. */
function running(call: number, output = ''): string {
  const chunk = (0x6f2130 + call * 7919).toString(16).slice(-6);
  return `Chunk ID: ${chunk}\nWall time: 1.00${10 + call} seconds\nProcess running with session ID ${SESSION}\nOriginal token count: 0\nOutput:\n${output}`;
}

function kindOf(tool: string, args: Record<string, unknown>) {
  return adapter.describeCall(toolCallToProposal(tool, args)).kind;
}

describe('a program left running, asked about through its standard input', () => {
  it('reads typing nothing into a running program as polling it', () => {
    expect(kindOf('write_stdin', POLL)).toBe('poll');
    expect(kindOf('write_stdin', { session_id: SESSION })).toBe('poll');
  });

  it('reads typing text or a key into a running program as running something', () => {
    expect(kindOf('write_stdin', { ...POLL, chars: 'npm test\n' })).toBe('exec');
    expect(kindOf('write_stdin', { ...POLL, chars: '\u0003' })).toBe('exec');
  });

  it('reads text under any argument name as typed, never as a poll', () => {
    expect(kindOf('send_stdin', { pid: 4121, content: 'y\n' })).toBe('exec');
    expect(kindOf('write_stdin', { session: 'build-1', chars: '' })).toBe('exec');
  });

  it('reads typing nothing with words beside it about what the call is for as polling it', () => {
    expect(kindOf('write_stdin', { ...POLL, description: 'Check whether the install finished' })).toBe(
      'poll',
    );
    expect(kindOf('write_stdin', { ...POLL, explanation: 'See how far the build got' })).toBe('poll');
  });

  it('still reads writing an empty file as a change', () => {
    expect(kindOf('write_file', { path: 'notes.md', content: '' })).toBe('mutate');
  });

  it('reads a command Codex left running as a success so far, its output without the header', () => {
    const outcome = toolCallToOutcome(
      'exec_command',
      { cmd: 'npm run build' },
      running(1, 'vite v5.4.2 building…'),
    );
    expect(outcome).toMatchObject({ success: true, content: 'vite v5.4.2 building…' });
    expect(outcome.exitCode).toBeUndefined();
  });

  it('reads any output of a running command back whole from under Codex’s header, whatever the header’s values', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{6}$/),
        fc.double({ min: 0, max: 3600, noNaN: true }),
        fc.nat(1_000_000),
        fc.nat(100_000),
        fc.string({ maxLength: 2000 }),
        (chunk, seconds, session, tokens, output) => {
          const text = `Chunk ID: ${chunk}\nWall time: ${seconds.toFixed(4)} seconds\nProcess running with session ID ${session}\nOriginal token count: ${tokens}\nOutput:\n${output}`;
          const outcome = toolCallToOutcome('write_stdin', POLL, text);
          expect(outcome.success).toBe(true);
          expect(outcome.content).toBe(output);
        },
      ),
    );
  });

  it('reads the end of the command a poll asked about from Codex’s header: its exit status and output', () => {
    const answer =
      'Chunk ID: 2d13a4\nWall time: 0.4012 seconds\nProcess exited with code 1\nOriginal token count: 12\nOutput:\nnpm error Missing script: "build"';
    const outcome = toolCallToOutcome('write_stdin', POLL, answer);
    expect(outcome).toMatchObject({
      success: false,
      exitCode: 1,
      content: 'npm error Missing script: "build"',
    });
  });

  it('blocks the sixth unchanged poll in quick succession, whatever chunk id and wall time each answer carries', () => {
    const loop = new NarrowingLoop({});
    const verdicts: string[] = [];
    for (let call = 1; call <= 6; call++) {
      verdicts.push(loop.checkProposal({ tool: 'write_stdin', args: POLL }).verdict);
      loop.recordOutcome(toolCallToOutcome('write_stdin', POLL, running(call)));
    }
    expect(verdicts.slice(0, 5)).not.toContain('block');
    expect(verdicts[5]).toBe('block');
  });

  it('blocks the sixth unchanged poll in quick succession when each says in other words what it is for', () => {
    const loop = new NarrowingLoop({});
    const purposes = [
      'Check whether the install finished',
      'See if apt is done downloading',
      'Poll the install once more',
      'Look at the package install progress',
      'Wait for the installer output',
      'Check the install again',
    ];
    const verdicts = purposes.map((description, index) => {
      const args = { ...POLL, description };
      const verdict = loop.checkProposal({ tool: 'write_stdin', args }).verdict;
      loop.recordOutcome(toolCallToOutcome('write_stdin', args, running(index + 1)));
      return verdict;
    });
    expect(verdicts.slice(0, 5)).not.toContain('block');
    expect(verdicts[5]).toBe('block');
  });

  it('says the program printed nothing new when it blocks such a poll', () => {
    const loop = new NarrowingLoop({});
    for (let call = 1; call <= 5; call++) {
      loop.checkProposal({ tool: 'write_stdin', args: POLL });
      loop.recordOutcome(toolCallToOutcome('write_stdin', POLL, running(call)));
    }
    const decision = loop.checkProposal({ tool: 'write_stdin', args: POLL });
    expect(decision.reason).toContain('(nothing new)');
  });

  it('never blocks polls of a program that keeps printing', () => {
    const loop = new NarrowingLoop({});
    const verdicts: string[] = [];
    for (let call = 1; call <= 10; call++) {
      verdicts.push(loop.checkProposal({ tool: 'write_stdin', args: POLL }).verdict);
      loop.recordOutcome(toolCallToOutcome('write_stdin', POLL, running(call, ` ✓ test ${call} passed`)));
    }
    expect(verdicts).not.toContain('block');
  });

  it('never blocks polls that each wait half a minute for the program to print', () => {
    const loop = new NarrowingLoop({});
    const patient = { ...POLL, yield_time_ms: 30_000 };
    const verdicts: string[] = [];
    for (let call = 1; call <= 10; call++) {
      verdicts.push(loop.checkProposal({ tool: 'write_stdin', args: patient }).verdict);
      loop.recordOutcome(toolCallToOutcome('write_stdin', patient, running(call)));
    }
    expect(verdicts).not.toContain('block');
  });

  it('keeps a ban on a failing command through polls of another command, which change nothing', () => {
    const loop = new NarrowingLoop({});
    const failing = { cmd: 'npm run lint' };
    const missing =
      'Chunk ID: 0b07aa\nWall time: 0.3 seconds\nProcess exited with code 1\nOriginal token count: 9\nOutput:\nnpm error Missing script: "lint"';
    for (let run = 1; run <= 2; run++) {
      loop.checkProposal({ tool: 'exec_command', args: failing });
      loop.recordOutcome(toolCallToOutcome('exec_command', failing, missing));
    }
    loop.checkProposal({ tool: 'write_stdin', args: POLL });
    loop.recordOutcome(toolCallToOutcome('write_stdin', POLL, running(1, 'still building')));
    expect(loop.checkProposal({ tool: 'exec_command', args: failing }).verdict).toBe('block');
  });
});
