import { describe, expect, it } from 'vitest';
import { convertAiderChat } from '../../scripts/corpus/convert-aider.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: 'predictions/m/x.md',
  licence: 'Apache-2.0',
  agent: 'Aider',
});

/** A chat log as aider writes it: `####` for the user, `>` for aider, the rest the model. */
const LOG = [
  '',
  '# aider chat started at 2024-05-21 19:14:40',
  '',
  '> Aider v0.35.1-dev  ',
  '',
  '#### QuerySet.none() on combined queries returns all results.  ',
  '',
  'Please add `django/db/models/query.py` to the chat.',
  '',
  '> django/db/models/query.py  ',
  '> Add these files to the chat? yes  ',
  '',
  'django/db/models/query.py',
  '```python',
  '<<<<<<< SEARCH',
  '        clone.query.set_empty()',
  '=======',
  '        if self.query.combinator:',
  '            clone.query = self.model._base_manager.none().query',
  '        else:',
  '            clone.query.set_empty()',
  '>>>>>>> REPLACE',
  '```',
  '',
  'django/db/models/sql/query.py',
  '```python',
  '<<<<<<< SEARCH',
  '    def set_empty(self):',
  '=======',
  '    def set_empty(self):  # combined too',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Applied edit to django/db/models/query.py  ',
  '> # 1 SEARCH/REPLACE block failed to match!  ',
  '>   ',
  '> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in django/db/models/sql/query.py  ',
  '> <<<<<<< SEARCH  ',
  '>     def set_empty(self):  ',
  '> =======  ',
  '>     def set_empty(self):  # combined too  ',
  '> >>>>>>> REPLACE  ',
  '>   ',
  '> The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc  ',
  '>   ',
  '> Test Script: conda run -n django__django__3.2 ./tests/runtests.py queries.test_qs_combinators;  ',
  '> [django__django__3.2] [django__django-13158] Command: conda run -n django__django__3.2 ./tests/runtests.py queries.test_qs_combinators  ',
  '> [django__django__3.2] [django__django-13158] Std. Output:  ',
  '> FAILED (failures=1)  ',
  '> [django__django__3.2] [django__django-13158] Return Code: 1   ',
  '>   ',
  '> >>>>> Some Tests Failed  ',
  '> Attempt to fix test errors? yes  ',
  '',
  '# aider chat started at 2024-05-21 19:20:02',
  '',
  '#### QuerySet.none() on combined queries returns all results.  ',
  '',
  'Nothing to change.',
  '',
].join('\n');

describe('Aider chat logs', () => {
  it('makes one run of each chat session', () => {
    const runs = convertAiderChat(LOG, SOURCE, 'aider-x', 'Aider run x');
    expect(runs.map((run) => run.name)).toEqual(['aider-x-1', 'aider-x-2']);
    expect(callsOf(runs[1]?.events ?? [])).toEqual([]);
  });

  it('reads added files, each edit block with its outcome, and the test run', () => {
    const [run] = convertAiderChat(LOG, SOURCE, 'aider-x', 'Aider run x');
    const calls = callsOf(run?.events ?? []);
    expect(
      calls.map((call) => [call.tool, call.args.path ?? call.args.command, call.result?.isError ?? false]),
    ).toEqual([
      ['add_file', 'django/db/models/query.py', false],
      ['edit_file', 'django/db/models/query.py', false],
      ['edit_file', 'django/db/models/sql/query.py', true],
      [
        'run_tests',
        'conda run -n django__django__3.2 ./tests/runtests.py queries.test_qs_combinators;',
        true,
      ],
    ]);
    expect(calls[2]?.args.search).toBe('    def set_empty(self):');
    expect(String(calls[2]?.result?.content)).toMatch(
      /failed to exactly match lines in django\/db\/models\/sql\/query\.py/,
    );
    expect(String(calls[3]?.result?.content)).toMatch(/Some Tests Failed/);
    expect(run?.events.filter((event) => event.type === 'user')).toHaveLength(1);
  });

  it("ends a failing block's report at the rule it broke, before the test run aider printed after it", () => {
    const [run] = convertAiderChat(LOG, SOURCE, 'aider-x', 'Aider run x');
    const failed = callsOf(run?.events ?? []).find(
      (call) => call.tool === 'edit_file' && call.result?.isError,
    );
    expect(String(failed?.result?.content)).toMatch(/docstrings, etc$/);
    expect(String(failed?.result?.content)).not.toMatch(/Test Script|Some Tests Failed/);
  });
});
