import { describe, expect, it } from 'vitest';
import { convertAiderHistory } from '../../scripts/corpus/convert-aider-history.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const SOURCE = pinnedSource({
  path: '.aider.chat.history.md',
  licence: 'MIT',
  agent: 'Aider on a developer workspace',
});

/**
 * A chat history as aider writes it beside a workspace: `####` for the developer, `>` for aider, the
 * rest the model. A failing block's report goes on without the `>` after its first line.
 */
const HISTORY = [
  '',
  '# aider chat started at 2026-02-23 01:07:02',
  '',
  '> C:\\Users\\dev\\.local\\bin\\aider --model deepseek/deepseek-chat  ',
  '> Aider v0.86.2  ',
  '> Git repo: .git with 73 files  ',
  '',
  '#### Move ItemData into the Core namespace and check the build.  ',
  '',
  'I need to see the ScriptableObject first.',
  '',
  '> Assets\\Scripts\\Core\\ItemData.cs  ',
  "> Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
  '',
  'Assets/Scripts/Core/ItemData.cs',
  '```csharp',
  '<<<<<<< SEARCH',
  'namespace PirateGame.Economy',
  '=======',
  'namespace PirateGame.Core',
  '>>>>>>> REPLACE',
  '```',
  '',
  'Assets/Scripts/Core/Ship.cs',
  '```csharp',
  '<<<<<<< SEARCH',
  'using PirateGame.Economy;',
  '=======',
  'using PirateGame.Core;',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Tokens: 6.3k sent, 913 received. Cost: $0.0017 message, $0.0034 session.  ',
  '> Applied edit to Assets\\Scripts\\Core\\Ship.cs  ',
  '> The LLM did not conform to the edit format.  ',
  '> https://aider.chat/docs/troubleshooting/edit-errors.html  ',
  '> # 1 SEARCH/REPLACE block failed to match!',
  '',
  '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in Assets\\Scripts\\Core\\ItemData.cs',
  '<<<<<<< SEARCH',
  'namespace PirateGame.Economy',
  '=======',
  'namespace PirateGame.Core',
  '>>>>>>> REPLACE',
  '',
  'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc',
  '',
  '# The other 1 SEARCH/REPLACE block were applied successfully.',
  "Don't re-send them.",
  'Just reply with fixed versions of the block above that failed to match.  ',
  '> Commit 96df678 fix: move ItemData into the Core namespace  ',
  '',
  'Here is the fixed block:',
  '',
  'Assets\\Scripts\\Core\\ItemData.cs',
  '```csharp',
  '<<<<<<< SEARCH',
  'namespace PirateGame.Economy',
  '=======',
  'namespace PirateGame.Core',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Tokens: 8.1k sent, 194 received. Cost: $0.0017 message, $0.0051 session.  ',
  '> # 1 SEARCH/REPLACE block failed to match!',
  '',
  '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in Assets\\Scripts\\Core\\ItemData.cs',
  '<<<<<<< SEARCH',
  'namespace PirateGame.Economy',
  '=======',
  'namespace PirateGame.Core',
  '>>>>>>> REPLACE',
  '',
  'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc',
  '',
  'The file already says `namespace PirateGame.Core`, so the rename is done. Now the build:',
  '',
  '```powershell',
  'dotnet build',
  '```',
  '',
  '> dotnet build  ',
  "> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
  '> Running dotnet build  ',
  "> Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y  ",
  '> Added 12 lines of output to the chat.  ',
  '',
  '#### /run git status  ',
  '',
  '# aider chat started at 2026-02-23 01:08:02',
  '',
  '> Aider v0.86.2  ',
  '',
  '#### /exit  ',
  '',
].join('\n');

/** aider's linter after an edit that broke a file. */
const LINTED = [
  '',
  '# aider chat started at 2025-03-18 17:15:38',
  '',
  '#### Fix the signal handler.  ',
  '',
  'agent.py',
  '```python',
  '<<<<<<< SEARCH',
  '    sys.exit(0)',
  '=======',
  '    sys.exit(0)',
  '6. Fix line length issues',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Applied edit to agent.py  ',
  '>  ',
  '> # Fix any errors below, if possible.  ',
  '>  ',
  '> ## Running: pylint agent.py  ',
  '>  ',
  '> ************* Module agent  ',
  "> agent.py:434:4: E0001: Parsing failed: 'invalid syntax (agent, line 434)' (syntax-error)  ",
  '>  ',
  '> ## See relevant line below marked with █.  ',
  '>  ',
  '> agent.py:  ',
  '> 434█6. Fix line length issues  ',
  '>  ',
  '> Attempt to fix lint errors? (Y)es/(N)o [Yes]: y  ',
  '> Only 3 reflections allowed, stopping.  ',
  '',
].join('\n');

/**
 * Replies whose blocks partly fail: aider applies a reply's blocks in order and reports the failing
 * ones in one message, the rule they broke once after them, then how many others it applied (and no
 * "Applied edit" line for those). After the last reflection it stops.
 */
const PARTLY_APPLIED = [
  '',
  '# aider chat started at 2026-02-23 01:08:02',
  '',
  '#### Remove the duplicate ItemData and mark the task done.  ',
  '',
  'TODO.md',
  '```markdown',
  '<<<<<<< SEARCH',
  '- [ ] Clean up duplicates',
  '=======',
  '- [x] Clean up duplicates',
  '>>>>>>> REPLACE',
  '```',
  '',
  'Assets\\Scripts\\Core\\ItemData.cs',
  '```csharp',
  '<<<<<<< SEARCH',
  'namespace PirateGame.Core',
  '=======',
  '>>>>>>> REPLACE',
  '```',
  '',
  'TODO.md',
  '```markdown',
  '<<<<<<< SEARCH',
  '- [ ] Clean up duplicates',
  '=======',
  '- [x] Clean up duplicates',
  '>>>>>>> REPLACE',
  '```',
  '',
  'Assets\\Scripts\\Economy\\PortEconomy.cs',
  '```csharp',
  '<<<<<<< SEARCH',
  'using PirateGame.Core;',
  '=======',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Tokens: 5.6k sent, 2.4k cache hit, 1.5k received. Cost: $0.0016 message, $0.0028 session.  ',
  '> The LLM did not conform to the edit format.  ',
  '> https://aider.chat/docs/troubleshooting/edit-errors.html  ',
  '> # 2 SEARCH/REPLACE blocks failed to match!',
  '',
  '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in Assets\\Scripts\\Core\\ItemData.cs',
  '<<<<<<< SEARCH',
  'namespace PirateGame.Core',
  '=======',
  '>>>>>>> REPLACE',
  '',
  '',
  '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in TODO.md',
  '<<<<<<< SEARCH',
  '- [ ] Clean up duplicates',
  '=======',
  '- [x] Clean up duplicates',
  '>>>>>>> REPLACE',
  '',
  'Are you sure you need this SEARCH/REPLACE block?',
  'The REPLACE lines are already in TODO.md!',
  '',
  'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc',
  '',
  '# The other 2 SEARCH/REPLACE blocks were applied successfully.',
  "Don't re-send them.",
  'Just reply with fixed versions of the blocks above that failed to match.  ',
  '> Commit bbbd513 chore: mark the clean-up done and drop an unused using  ',
  '',
  'Here is the block again:',
  '',
  'Assets\\Scripts\\Core\\ItemData.cs',
  '```csharp',
  '<<<<<<< SEARCH',
  'namespace PirateGame.Core',
  '=======',
  '>>>>>>> REPLACE',
  '```',
  '',
  '> Tokens: 8.2k sent, 2.6k cache hit, 297 received. Cost: $0.0018 message, $0.0046 session.  ',
  '> The LLM did not conform to the edit format.  ',
  '> https://aider.chat/docs/troubleshooting/edit-errors.html  ',
  '> # 1 SEARCH/REPLACE block failed to match!',
  '',
  '## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in Assets\\Scripts\\Core\\ItemData.cs',
  '<<<<<<< SEARCH',
  'namespace PirateGame.Core',
  '=======',
  '>>>>>>> REPLACE',
  '',
  'The SEARCH section must exactly match an existing block of lines including all white space, comments, indentation, docstrings, etc  ',
  '> Only 3 reflections allowed, stopping.  ',
  '> You can use /undo to undo and discard each aider commit.  ',
  '',
].join('\n');

describe('Aider chat histories', () => {
  it('makes one run of each session with a call, named by its place in the file', () => {
    const runs = convertAiderHistory(HISTORY, SOURCE, 'pirates-aider', 'Aider session');
    expect(runs.map((run) => run.name)).toEqual(['pirates-aider-1']);
  });

  it('reads a failing block from the report aider printed without its prefix, whatever slashes the paths use', () => {
    const [run] = convertAiderHistory(HISTORY, SOURCE, 'pirates-aider', 'Aider session');
    const calls = callsOf(run?.events ?? []);
    expect(
      calls.map((call) => [call.tool, call.args.path ?? call.args.command, call.result?.isError]),
    ).toEqual([
      ['add_file', 'Assets\\Scripts\\Core\\ItemData.cs', undefined],
      ['edit_file', 'Assets/Scripts/Core/ItemData.cs', true],
      ['edit_file', 'Assets/Scripts/Core/Ship.cs', undefined],
      ['edit_file', 'Assets\\Scripts\\Core\\ItemData.cs', true],
      ['run_command', 'dotnet build', undefined],
    ]);
    expect(calls[2]?.result?.content).toBe('Applied edit to Assets\\Scripts\\Core\\Ship.cs');
    expect(String(calls[1]?.result?.content)).toMatch(
      /^## SearchReplaceNoExactMatch: .*ItemData\.cs\n<<<<<<< SEARCH/,
    );
    expect(String(calls[3]?.result?.content)).toMatch(/The SEARCH section must exactly match/);
  });

  it('keeps no result for a shell command, whose output the history does not hold', () => {
    const [run] = convertAiderHistory(HISTORY, SOURCE, 'pirates-aider', 'Aider session');
    const command = callsOf(run?.events ?? []).find((call) => call.tool === 'run_command');
    expect(command?.result).toBeUndefined();
  });

  it("reads the developer's own commands as turns of the developer, not calls", () => {
    const [run] = convertAiderHistory(HISTORY, SOURCE, 'pirates-aider', 'Aider session');
    expect(run?.events.filter((event) => event.type === 'user')).toHaveLength(2);
    expect(callsOf(run?.events ?? []).some((call) => String(call.args.command).includes('git status'))).toBe(
      false,
    );
  });

  it("reads the linter's report after an edit as a failed lint call", () => {
    const [run] = convertAiderHistory(LINTED, SOURCE, 'signal-aider', 'Aider session');
    const calls = callsOf(run?.events ?? []);
    expect(
      calls.map((call) => [call.tool, call.args.path ?? call.args.command, call.result?.isError]),
    ).toEqual([
      ['edit_file', 'agent.py', undefined],
      ['lint', 'pylint agent.py', true],
    ]);
    expect(String(calls[1]?.result?.content)).toMatch(/E0001: Parsing failed/);
  });

  it('answers each failing block with its own part of the report and the rule, not what aider printed after it', () => {
    const [run] = convertAiderHistory(PARTLY_APPLIED, SOURCE, 'pirates-aider', 'Aider session');
    const failed = callsOf(run?.events ?? []).filter((call) => call.result?.isError === true);
    const reports = failed.map((call) => String(call.result?.content));
    expect(reports).toHaveLength(3);
    for (const report of reports) {
      expect(report).toMatch(/^## SearchReplaceNoExactMatch: /);
      expect(report).toMatch(/The SEARCH section must exactly match .*docstrings, etc$/);
      expect(report).not.toMatch(/The other 2|Commit bbbd513|Only 3 reflections|\/undo/);
    }
    expect(reports[0]).toBe(reports[2]);
  });

  it('reads the blocks aider says it applied beside the failing ones as applied', () => {
    const [run] = convertAiderHistory(PARTLY_APPLIED, SOURCE, 'pirates-aider', 'Aider session');
    const calls = callsOf(run?.events ?? []);
    expect(
      calls.map((call) => [call.args.path, call.result?.isError ?? false, call.result !== undefined]),
    ).toEqual([
      ['TODO.md', false, true],
      ['Assets\\Scripts\\Core\\ItemData.cs', true, true],
      ['TODO.md', true, true],
      ['Assets\\Scripts\\Economy\\PortEconomy.cs', false, true],
      ['Assets\\Scripts\\Core\\ItemData.cs', true, true],
    ]);
    expect(calls[3]?.result?.content).toBe('Applied edit to Assets\\Scripts\\Economy\\PortEconomy.cs');
  });

  it('gives the failure of a block sent twice in one reply to the second, which the first one left unmatched', () => {
    const [run] = convertAiderHistory(PARTLY_APPLIED, SOURCE, 'pirates-aider', 'Aider session');
    const todo = callsOf(run?.events ?? []).filter((call) => call.args.path === 'TODO.md');
    expect(todo.map((call) => call.result?.isError ?? false)).toEqual([false, true]);
    expect(String(todo[1]?.result?.content)).toMatch(/The REPLACE lines are already in TODO\.md!/);
  });

  it('puts the blocks of one reply in one turn, and the next reply in another', () => {
    const [run] = convertAiderHistory(PARTLY_APPLIED, SOURCE, 'pirates-aider', 'Aider session');
    const calls = callsOf(run?.events ?? []);
    const first = calls[0]?.turn;
    expect(first).toBeDefined();
    expect(calls.slice(0, 4).every((call) => call.turn === first)).toBe(true);
    expect(calls[4]?.turn).not.toBe(first);
  });
});
