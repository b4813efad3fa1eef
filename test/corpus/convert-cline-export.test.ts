import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { convertClineExport, exportMessages } from '../../scripts/corpus/convert-cline-export.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const from = pinnedSource({
  path: 'sessions/roo_task_jan-5-2026_3-04-11-pm.md',
  licence: 'MIT',
  agent: 'Roo Code',
});
const convert = (markdown: string) => convertClineExport(markdown, from, 'demo-task', 'Roo Code task');
const editor =
  '<environment_details>\n# VSCode Visible Files\napi/server.py\n\n# Current Mode\n<slug>code</slug>\n</environment_details>';
/** An export as the extension writes it: each message under its header, parted by `---` lines. */
const exported = (...messages: [role: 'User' | 'Assistant', text: string][]) =>
  messages.map(([role, text]) => `**${role}:**\n\n${text}`).join('\n\n---\n\n');

describe("Cline's and Roo Code's task exports", () => {
  it("reads each message under its header, and a header inside a message's text as text", () => {
    const markdown = exported(
      ['User', `<task>\nStart the API server\n</task>\n${editor}`],
      [
        'Assistant',
        'Notes I keep:\n**User:**\nnot a message\n\n<read_file>\n<path>api/server.py</path>\n</read_file>',
      ],
    );
    const messages = exportMessages(markdown);
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(messages[1]?.content).toBe(
      'Notes I keep:\n**User:**\nnot a message\n\n<read_file>\n<path>api/server.py</path>\n</read_file>',
    );
  });

  it("pairs a reply's tool with the result that opens the next message, and leaves the editor's details out", () => {
    const markdown = exported(
      ['User', `<task>\nStart the API server\n</task>\n${editor}`],
      [
        'Assistant',
        'Starting it.\n\n<execute_command>\n<command>python api/server.py</command>\n</execute_command>',
      ],
      [
        'User',
        "[execute_command for 'python api/server.py'] Result:\nCommand executed in terminal  within working directory '/home/dev/shop'. Exit code: 0\nOutput:\nServing on port 8000\n\n" +
          editor,
      ],
    );
    const run = convert(markdown);
    expect(run.events.filter((event) => event.type === 'user')).toEqual([
      { type: 'user', text: 'Start the API server' },
    ]);
    expect(callsOf(run.events)).toEqual([
      {
        type: 'call',
        tool: 'execute_command',
        args: { command: 'python api/server.py' },
        result: {
          content:
            "Command executed in terminal  within working directory '/home/dev/shop'. Exit code: 0\nOutput:\nServing on port 8000",
        },
      },
    ]);
  });

  it('reads a command that was not successful, and a diff answered by an error element, as failed', () => {
    const markdown = exported(
      ['Assistant', '<execute_command>\n<command>pytest tests</command>\n</execute_command>'],
      [
        'User',
        "[execute_command for 'pytest tests'] Result:\nCommand executed in terminal  within working directory '/home/dev/shop'. Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 1\nOutput:\n2 failed, 9 passed\n" +
          editor,
      ],
      [
        'Assistant',
        '<apply_diff>\n<path>api/server.py</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:12\n-------\nport = 80\n=======\nport = 8000\n>>>>>>> REPLACE\n</diff>\n</apply_diff>',
      ],
      [
        'User',
        "[apply_diff for 'api/server.py'] Result:\n<error_details>\nNo sufficiently similar match found at line: 12 (41% similar, needs 100%)\n</error_details>\n" +
          editor,
      ],
    );
    expect(
      callsOf(convert(markdown).events).map((call) => [call.tool, call.result?.isError ?? false]),
    ).toEqual([
      ['execute_command', true],
      ['apply_diff', true],
    ]);
  });

  it('reads a command that printed an exit code of zero in its output as a success', () => {
    const markdown = exported(
      ['Assistant', '<execute_command>\n<command>./check.sh</command>\n</execute_command>'],
      [
        'User',
        "[execute_command for './check.sh'] Result:\nCommand executed in terminal  within working directory '/home/dev/shop'. Exit code: 0\nOutput:\nretrying\nExit code: 1\nall checks passed\n" +
          editor,
      ],
    );
    expect(callsOf(convert(markdown).events)[0]?.result?.isError).toBeUndefined();
  });

  it('takes a result whose header says more than the file it read or the mode it switched to', () => {
    const markdown = exported(
      [
        'Assistant',
        '<read_file>\n<args>\n<file>\n<path>api/server.py</path>\n</file>\n</args>\n</read_file>',
      ],
      [
        'User',
        '[read_file for \'api/server.py\'. Reading several files at once saves requests.] Result:\n<files>\n<file><path>api/server.py</path>\n<content lines="1-1">\n1 | port = 8000\n</content>\n</file>\n</files>\n' +
          editor,
      ],
      [
        'Assistant',
        '<switch_mode>\n<mode_slug>debug</mode_slug>\n<reason>Trace the crash</reason>\n</switch_mode>',
      ],
      [
        'User',
        `[switch_mode to 'debug' because: Trace the crash] Result:\nSwitched to Debug mode.\n${editor}`,
      ],
    );
    expect(callsOf(convert(markdown).events).map((call) => call.result?.content)).toEqual([
      '<files>\n<file><path>api/server.py</path>\n<content lines="1-1">\n1 | port = 8000\n</content>\n</file>\n</files>',
      'Switched to Debug mode.',
    ]);
  });

  it('keeps a call the user denied without a result, and their feedback as a user turn', () => {
    const markdown = exported(
      ['Assistant', '<execute_command>\n<command>git push origin main</command>\n</execute_command>'],
      [
        'User',
        "[execute_command for 'git push origin main'] Result:\nThe user denied this operation and provided the following feedback:\n<feedback>\nRun the tests first\n</feedback>\n" +
          editor,
      ],
    );
    const run = convert(markdown);
    expect(callsOf(run.events)).toEqual([
      { type: 'call', tool: 'execute_command', args: { command: 'git push origin main' } },
    ]);
    expect(run.events.at(-1)).toEqual({ type: 'user', text: 'Run the tests first' });
  });

  it('never throws on any text, and gives no more calls than the export has replies', () => {
    const line = fc.oneof(
      fc.constantFrom(
        '**User:**',
        '**Assistant:**',
        '---',
        '',
        '<read_file>',
        '</read_file>',
        '<path>a.py</path>',
      ),
      fc.constantFrom(
        "[read_file for 'a.py'] Result:",
        'Exit code: 1',
        '<environment_details>',
        '</environment_details>',
      ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), (lines) => {
        const markdown = lines.join('\n');
        const replies = exportMessages(markdown).filter((message) => message.role === 'assistant').length;
        expect(callsOf(convert(markdown).events).length).toBeLessThanOrEqual(replies);
      }),
    );
  });
});
