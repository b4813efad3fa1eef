/**
 * One command's outcome, as each host frames it in the text it returns, reads the same: the exit
 * status from the frame (Codex's header, Gemini CLI's block, Claude Code's first line), and the
 * command's output without the frame's wall time or process group, which differ on every run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../../src/adapters/tool-call/adapter.js';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import { framedShellOutcome } from '../../../src/adapters/tool-call/shell-framing.js';
import { NarrowingLoop } from '../../../src/index.js';

const COMMAND = { command: 'npm run lint' };
const MISSING_SCRIPT =
  'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run';

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** The same failed run of `npm run lint`, as each host returns it the `run`-th time. */
const FRAMES: Record<string, (run: number) => ReturnType<typeof text>> = {
  'Codex (shell)': (run) => text(`Exit code: 1\nWall time: 0.${run}12 seconds\nOutput:\n${MISSING_SCRIPT}`),
  'Codex (exec_command)': (run) =>
    text(
      `Chunk ID: 4f2a${run}c\nWall time: 0.0${run}41 seconds\nProcess exited with code 1\nOriginal token count: 31\nOutput:\n${MISSING_SCRIPT}`,
    ),
  'Gemini CLI (block)': (run) =>
    text(
      `Command: npm run lint\nDirectory: (root)\nOutput: ${MISSING_SCRIPT}\nError: (none)\nExit Code: 1\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: ${48211 + run}`,
    ),
  'Gemini CLI': (run) => text(`Output: ${MISSING_SCRIPT}\nExit Code: 1\nProcess Group PGID: ${48211 + run}`),
  'Claude Code': () => ({ ...text(`Exit code 1\n${MISSING_SCRIPT}`), isError: true }),
  'Codex (older JSON)': (run) =>
    text(JSON.stringify({ output: MISSING_SCRIPT, metadata: { exit_code: 1, duration_seconds: run / 10 } })),
  OpenHands: (run) =>
    text(
      `${MISSING_SCRIPT}\n[The command completed with exit code 1.]\n[Current working directory: /workspace/app]\n[Python interpreter: /openhands/poetry/openhands-ai-${run}Xq-py3.12/bin/python]\n[Command finished with exit code 1]`,
    ),
  'OpenHands (tools called in text)': () =>
    text(`EXECUTION RESULT of [execute_bash]:\n${MISSING_SCRIPT}\n[The command completed with exit code 1.]`),
  'mini-swe-agent': () => text(`<returncode>1</returncode>\n<output>\n${MISSING_SCRIPT}\n</output>`),
  'Roo Code': () =>
    text(
      `Command executed in terminal 1 within working directory '/home/dev/app'. Command execution was not successful, inspect the cause and adjust as needed.\nExit code: 1\nOutput:\n${MISSING_SCRIPT}`,
    ),
  'a terminal tool': () => text(`${MISSING_SCRIPT}\n\nCommand exited with code 1`),
};

describe('a command’s outcome in a host’s frame', () => {
  it.each(Object.keys(FRAMES))('reads the exit status and the output from %s’s frame', (host) => {
    const outcome = toolCallToOutcome('shell', COMMAND, FRAMES[host]?.(1));
    expect(outcome).toMatchObject({ success: false, exitCode: 1, content: MISSING_SCRIPT });
  });

  it.each(Object.keys(FRAMES))('blocks the same failing command run again under %s’s frame', (host) => {
    const loop = new NarrowingLoop({});
    const verdicts: string[] = [];
    for (let run = 1; run <= 3; run++) {
      verdicts.push(loop.checkProposal({ tool: 'shell', args: COMMAND }).verdict);
      loop.recordOutcome(toolCallToOutcome('shell', COMMAND, FRAMES[host]?.(run)));
    }
    expect(verdicts).toEqual(['allow', 'block', 'block']);
  });

  it('reads the exit status from the line Claude Code’s transcripts open a failure with, `Error: Exit code N`', () => {
    const outcome = toolCallToOutcome('Bash', COMMAND, `Error: Exit code 2\n${MISSING_SCRIPT}`);
    expect(outcome).toMatchObject({ success: false, exitCode: 2, content: MISSING_SCRIPT });
  });

  it('reads a status line of 0 after the output as a success, its output without the line', () => {
    const outcome = toolCallToOutcome(
      'run_in_terminal',
      { command: 'npm run build' },
      text('> shop@1.0.0 build\n> tsc -p .\n\n[Process completed with exit code 0]'),
    );
    expect(outcome).toMatchObject({ success: true, exitCode: 0, content: '> shop@1.0.0 build\n> tsc -p .' });
  });

  it('leaves a text that is a status line alone as it is: no output was framed', () => {
    const outcome = toolCallToOutcome('shell', COMMAND, text('Exit code: 1'));
    expect(outcome).toMatchObject({ success: true, content: 'Exit code: 1' });
    expect(outcome.exitCode).toBeUndefined();
  });

  it('reads no status from a line about a status that is not the last', () => {
    const outcome = toolCallToOutcome(
      'run_in_terminal',
      { command: 'node scripts/check.js' },
      text('worker exited with code 1\nretrying with 2 workers\nall checks passed'),
    );
    expect(outcome).toMatchObject({ success: true });
    expect(outcome.exitCode).toBeUndefined();
  });

  it('reads a success in Codex’s frame as a success, its output without the header', () => {
    const outcome = toolCallToOutcome(
      'exec_command',
      { cmd: 'git status --short' },
      text('Exit code: 0\nWall time: 0.2 seconds\nOutput:\n M src/app.ts'),
    );
    expect(outcome).toMatchObject({ success: true, exitCode: 0, content: ' M src/app.ts' });
  });

  it('reads Gemini CLI’s empty output as an empty output', () => {
    const outcome = toolCallToOutcome(
      'run_shell_command',
      { command: 'mkdir -p build' },
      text('Output: (empty)\nProcess Group PGID: 51002'),
    );
    expect(outcome).toMatchObject({ success: true, content: '' });
  });

  const SUCCESSES: Record<string, readonly [string, string, string]> = {
    'OpenHands’ frame, without its bracketed lines': [
      'execute_bash',
      'ls src',
      'app.py\nutils.py\n[The command completed with exit code 0.]\n[Current working directory: /workspace/app]',
    ],
    'Roo Code’s frame, its status on the header’s first line': [
      'execute_command',
      'ls src',
      "Command executed in terminal  within working directory 'c:/dev/app'. Exit code: 0\nOutput:\napp.py\nutils.py",
    ],
  };

  it.each(Object.keys(SUCCESSES))('reads a success in %s, as a success with the output alone', (frame) => {
    const [tool, command, result] = SUCCESSES[frame] ?? ['', '', ''];
    const outcome = toolCallToOutcome(tool, { command }, text(result));
    expect(outcome).toMatchObject({ success: true, exitCode: 0, content: 'app.py\nutils.py' });
  });

  it('leaves an OpenHands command that has not ended without a status', () => {
    const running =
      "Serving on port 8000\n[The command has no new output after 30 seconds. You may wait longer to see additional output by sending empty command '', send other commands to interact with the current process, or send keys to interrupt/kill the command.]";
    const outcome = toolCallToOutcome(
      'execute_bash',
      { command: 'python -m http.server 8000' },
      text(running),
    );
    expect(outcome.exitCode).toBeUndefined();
    expect(outcome.success).toBe(true);
  });

  it('reads a command mini-swe-agent killed at its time limit as the environment’s timeout, and never blocks its run again', () => {
    const command = { command: 'pip install torch' };
    const killed = text(
      'The last command <command>pip install torch</command> timed out and has been killed.\nThe output of the command was:\n <output>\nCollecting torch\n</output>\nPlease try another command and make sure to avoid those requiring interactive input.',
    );
    const outcome = toolCallToOutcome('bash', command, killed);
    expect(outcome.success).toBe(false);
    const adapter = createToolCallAdapter();
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))).toMatchObject({
      signature: 'tool_timeout',
      blame: 'harness_fault',
    });
    const loop = new NarrowingLoop({});
    const verdicts: string[] = [];
    for (let run = 1; run <= 4; run++) {
      verdicts.push(loop.checkProposal({ tool: 'bash', args: command }).verdict);
      loop.recordOutcome(toolCallToOutcome('bash', command, killed));
    }
    expect(verdicts).not.toContain('block');
  });

  it('reads mini-swe-agent’s long output, shown by its head and tail, with its status', () => {
    const long =
      '<warning>\nThe output of your last command was too long.\n</warning><output_head>\nA\n</output_head>';
    const outcome = toolCallToOutcome(
      'bash',
      { command: 'pytest -q' },
      text(`<returncode>2</returncode>\n${long}`),
    );
    expect(outcome).toMatchObject({ success: false, exitCode: 2, content: long });
  });

  it.each([
    [
      'an output that only ends with a bracket, a JSON list',
      'bash',
      { command: 'docker compose ps --format json' },
      '[\n  {"name": "api", "status": "running"}\n]',
    ],
    [
      'a file that holds such a header when no command printed it',
      'read_file',
      { path: 'logs/run.txt' },
      'Exit code: 1\nWall time: 0.2 seconds\nOutput:\nboom',
    ],
  ])('leaves %s as it is', (_what, tool, args, answer) => {
    const outcome = toolCallToOutcome(tool, args, text(answer));
    expect(outcome).toMatchObject({ success: true, content: answer });
  });

  it('reads a pipeline whose first command could not open its file the same with status 0 in a frame as with no status', () => {
    const command = { command: 'grep -n "<<<<<<< HEAD" src/tools/registry.ts | head -50' };
    const printed = 'grep: src/tools/registry.ts: No such file or directory';
    const framed = {
      'Codex (shell)': text(`Exit code: 0\nWall time: 0.0410 seconds\nOutput:\n${printed}`),
      'Codex (exec_command)': text(
        `Chunk ID: 91ee07\nWall time: 0.0410 seconds\nProcess exited with code 0\nOriginal token count: 14\nOutput:\n${printed}`,
      ),
      'Gemini CLI': text(
        `Command: ${command.command}\nDirectory: (root)\nOutput: ${printed}\nError: (none)\nExit Code: 0\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 48212`,
      ),
    };
    const bare = toolCallToOutcome('run_terminal_cmd', command, text(printed));
    expect(bare.success).toBe(false);
    for (const [host, result] of Object.entries(framed)) {
      const outcome = toolCallToOutcome('shell', command, result);
      expect({ host, success: outcome.success, content: outcome.content }).toEqual({
        host,
        success: false,
        content: printed,
      });
    }
  });

  it('reads a check piped into head as a failure when pnpm printed why it stopped', () => {
    const outcome = toolCallToOutcome(
      'Bash',
      { command: 'pnpm run typecheck 2>&1 | head -100' },
      {
        exitCode: 0,
        stdout:
          ' ERR_PNPM_NO_IMPORTER_MANIFEST_FOUND  No package.json (or package.yaml, or package.json5) was found in "/home/dev".',
        stderr: '',
      },
    );
    expect(outcome.success).toBe(false);
    const passing = toolCallToOutcome(
      'Bash',
      { command: 'pnpm run typecheck 2>&1 | head -100' },
      { exitCode: 0, stdout: '> api@1.0.0 typecheck /home/dev/api\n> tsc --noEmit\n', stderr: '' },
    );
    expect(passing.success).toBe(true);
  });

  it.each([
    [
      'after `|| true`',
      'python -c "from src.mcp_servers.netmiko.tools import commands" 2>&1 || true',
      'Traceback (most recent call last):\n  File "<string>", line 1, in <module>\nModuleNotFoundError: No module named \'src.mcp_servers\'',
    ],
    [
      'after `|| echo`',
      'cat .env.local || echo "no local env"',
      'cat: .env.local: No such file or directory\nno local env',
    ],
    [
      'in the background',
      'python3 server.py &',
      "python3: can't open file '/app/server.py': [Errno 2] No such file or directory",
    ],
    [
      'before `;`',
      'cd packages/api; ls',
      'bash: line 1: cd: packages/api: No such file or directory\nREADME.md  package.json',
    ],
  ])(
    'reads status 0 the same in a frame as with no status when a failure %s hides behind it',
    (_where, line, printed) => {
      const command = { command: line };
      const bare = toolCallToOutcome('Bash', command, text(printed));
      const framed = toolCallToOutcome(
        'shell',
        command,
        text(`Exit code: 0\nWall time: 0.0410 seconds\nOutput:\n${printed}`),
      );
      expect(bare.success).toBe(false);
      expect({ success: framed.success, content: framed.content }).toEqual({
        success: false,
        content: printed,
      });
    },
  );

  it('reads status 0 as a success when every command of an `&&` list ran', () => {
    const outcome = toolCallToOutcome(
      'shell',
      { command: 'cd packages/api && cat notes.txt' },
      text(
        'Exit code: 0\nWall time: 0.0410 seconds\nOutput:\ncat: old.txt: No such file or directory, the notes said',
      ),
    );
    expect(outcome).toMatchObject({ success: true, exitCode: 0 });
  });

  it('reads status 0 as a success when a `|` is only inside a quoted pattern', () => {
    const outcome = toolCallToOutcome(
      'shell',
      { command: 'grep -E "error|warn" logs/app.log' },
      text('Exit code: 0\nWall time: 0.0410 seconds\nOutput:\ngrep: logs/app.log: No such file or directory'),
    );
    expect(outcome).toMatchObject({ success: true, exitCode: 0 });
  });

  it('reads a pipeline whose first command could not open its file as a failure when status 0 comes apart, as hooks and result objects give it', () => {
    const command = { command: 'grep -n "TODO" src/tools/registry.ts | head -50' };
    const printed = 'grep: src/tools/registry.ts: No such file or directory';
    const hook = toolCallToOutcome('shell', command, printed, { exitCode: 0 });
    const object = toolCallToOutcome('Bash', command, { exitCode: 0, stdout: '', stderr: printed });
    for (const outcome of [hook, object]) expect(outcome.success).toBe(false);
  });

  it('reads any text built of frames’ pieces without throwing, and frames only outputs it holds', () => {
    const pieces = fc.constantFrom(
      '[The command completed with exit code 1.]',
      '[Command finished with exit code 0]',
      '[Current working directory: /w]',
      '<returncode>1</returncode>',
      '<output>',
      '</output>',
      'EXECUTION RESULT of [execute_bash]:',
      '{"output":',
      'Exit code: 1',
      'Output:',
      ']',
      '\n',
      ' ',
    );
    const texts = fc
      .array(fc.oneof(pieces, fc.string({ maxLength: 8 })), { maxLength: 24 })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(texts, (value) => {
        const framed = framedShellOutcome(value);
        if (framed === undefined || value.startsWith('{')) return;
        expect(value).toContain(framed.output);
        expect(framed.exitCode === undefined || Number.isInteger(framed.exitCode)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });
});
