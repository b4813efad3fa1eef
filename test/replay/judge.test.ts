import { describe, expect, it } from 'vitest';
import { judgeBlocks, wastedSteps } from '../../src/replay/judge.js';
import { replayTrace } from '../../src/replay/replay.js';
import { parseTrace } from '../../src/trace/index.js';

function trace(...lines: object[]) {
  return parseTrace(lines.map((line) => JSON.stringify(line)).join('\n'), 'test.jsonl');
}

const NOT_FOUND = { isError: true, content: 'Error: old_string not found in app/models.py' };
const edit = (newString: string) => ({
  type: 'call',
  tool: 'str_replace',
  args: { path: 'app/models.py', old_string: 'def save(self):\n    pass', new_string: newString },
  result: NOT_FOUND,
});

describe('wastedSteps', () => {
  it('counts a call that failed the same way as the same call before, with nothing changed', () => {
    const events = trace(edit('x'), { type: 'user', text: 'try again' }, edit('x'));
    expect([...wastedSteps(events)]).toEqual([2]);
  });

  it('counts a failure like an earlier one of the same tool on the same target', () => {
    expect([...wastedSteps(trace(edit('x'), edit('y')))]).toEqual([2]);
  });

  it('does not count a repeat after a change of what the call depends on', () => {
    const events = trace(
      edit('x'),
      {
        type: 'call',
        tool: 'write_file',
        args: { path: 'app/models.py', content: 'class Model:\n    pass\n' },
        result: { content: 'Wrote app/models.py' },
      },
      edit('x'),
    );
    expect([...wastedSteps(events)]).toEqual([]);
  });

  it('counts the same read returning the same content, but not a read of new content', () => {
    const read = (content: string) => ({
      type: 'call',
      tool: 'read_file',
      args: { path: 'a.ts' },
      result: { content },
    });
    expect([...wastedSteps(trace(read('x = 1'), read('x = 1'), read('x = 2')))]).toEqual([2]);
  });
});

describe('judgeBlocks', () => {
  it('calls a block justified when the blocked call was wasted, and false otherwise', () => {
    const events = trace(edit('x'), edit('x'));
    const { steps } = replayTrace(events);
    expect(judgeBlocks(steps, wastedSteps(events))).toEqual({
      blocks: 1,
      justified: 1,
      false: 0,
      falseSteps: [],
    });
    expect(judgeBlocks(steps, new Set())).toMatchObject({ justified: 0, false: 1, falseSteps: [2] });
  });
});

describe('what each step returned', () => {
  it('shows the recorded result on one line, and a failure as an error', () => {
    const { steps } = replayTrace(
      trace(edit('x'), {
        type: 'call',
        tool: 'read_file',
        args: { path: 'a.ts' },
        result: { content: 'x = 1\ny = 2' },
      }),
    );
    expect(steps.map((step) => step.returned)).toEqual([
      'error: Error: old_string not found in app/models.py',
      'x = 1 y = 2',
    ]);
  });
});
