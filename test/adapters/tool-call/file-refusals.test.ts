import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolCallAdapter, toolCallToOutcome } from '../../../src/adapters/tool-call/index.js';
import { Agent } from '../../core/support.js';

const adapter = createToolCallAdapter();

/** What the adapter reads of an answer given back with nothing flagged. */
function readUnflagged(tool: string, args: Record<string, unknown>, text: string) {
  const outcome = toolCallToOutcome(tool, args, { content: [{ type: 'text', text }] });
  return adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
}

const EDIT = { command: 'str_replace', path: '/testbed/src/totals.py', old_str: 'x = 1', new_str: 'x = 2' };

describe("a file tool's refusal given back unflagged", () => {
  it.each([
    [
      'str_replace_editor',
      EDIT,
      'No replacement was performed, old_str `x = 1` did not appear verbatim in /testbed/src/totals.py.',
    ],
    [
      'str_replace_editor',
      EDIT,
      'ERROR:\nNo replacement was performed, old_str `x = 1` did not appear verbatim in /testbed/src/totals.py.',
    ],
    [
      'Edit',
      { file_path: '/repo/a.py', old_string: 'x = 1', new_string: 'x = 2' },
      '<tool_use_error>String to replace not found in file.\nString: x = 1</tool_use_error>',
    ],
    [
      'replace',
      { file_path: '/repo/a.py', old_string: 'x = 1', new_string: 'x = 2' },
      'Failed to edit, 0 occurrences found for old_string (x = 1). No edits made.',
    ],
  ])('reads %s refusing an edit as the edit failing', (tool, args, text) => {
    expect(readUnflagged(tool, args, text)).toMatchObject({
      signature: 'edit_failed',
      blame: 'agent_failure',
    });
  });

  it('reads a refusal that quotes a search text of several lines, the quote taken out first', () => {
    const args = {
      ...EDIT,
      old_str: 'case TK_MATCH_CAPTURE:\n    case TK_MATCH_DONTCARE:\n      return pattern_type;',
    };
    const text = `ERROR:\nNo replacement was performed, old_str \`${args.old_str}\` did not appear verbatim in /testbed/src/totals.py.`;
    expect(readUnflagged('str_replace_editor', args, text)).toMatchObject({ signature: 'edit_failed' });
  });

  it('reads a short answer of a read that says the file does not exist as a missing file', () => {
    expect(
      readUnflagged(
        'Read',
        { file_path: '/repo/nope.py' },
        'File does not exist. Note: your current working directory is /repo.',
      ),
    ).toMatchObject({ signature: 'file_not_found', blame: 'agent_failure' });
  });

  it("reads OpenHands' labelled refusal of a path as a missing file", () => {
    const text =
      'ERROR:\nInvalid `path` parameter: /workspace/app/foo.py. The path /workspace/app/foo.py does not exist. Please provide a valid path.';
    expect(
      readUnflagged('str_replace_editor', { command: 'view', path: '/workspace/app/foo.py' }, text),
    ).toMatchObject({
      signature: 'file_not_found',
    });
  });

  it("leaves an editor's success, and a read of a log whose lines are errors, as successes", () => {
    expect(
      readUnflagged(
        'Edit',
        { file_path: '/repo/a.py', old_string: 'a', new_string: 'b' },
        'The file /repo/a.py has been updated successfully.',
      ),
    ).toBeUndefined();
    expect(
      readUnflagged(
        'Write',
        { file_path: '/repo/b.py', content: 'x' },
        'File created successfully at: /repo/b.py',
      ),
    ).toBeUndefined();
    const log = Array.from(
      { length: 12 },
      (_, line) => `ENOENT: no such file or directory, open '/srv/cache/${line}.bin'`,
    ).join('\n');
    expect(readUnflagged('Read', { file_path: '/srv/logs/worker.log' }, log)).toBeUndefined();
  });

  it('leaves a command alone: its frame or its own lines say how it went', () => {
    expect(
      readUnflagged(
        'Bash',
        { command: 'cat /repo/notes.md' },
        'No such file or directory: see docs/setup.md',
      ),
    ).toBeUndefined();
  });

  it('blocks an edit refused twice unflagged, as when its host flags it', () => {
    const agent = new Agent();
    const refusal =
      'No replacement was performed, old_str `x = 1` did not appear verbatim in /testbed/src/totals.py.';
    agent.call('str_replace_editor', EDIT, refusal);
    agent.call('str_replace_editor', EDIT, refusal);
    expect(agent.check('str_replace_editor', EDIT).verdict).toBe('block');
  });

  it('never throws, whatever an editor answers', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (text) => {
        expect(() => readUnflagged('str_replace_editor', EDIT, text)).not.toThrow();
      }),
    );
  });
});
