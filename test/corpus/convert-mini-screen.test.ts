import { describe, expect, it } from 'vitest';
import { convertMiniScreen, miniScreenMessages } from '../../scripts/corpus/convert-mini-screen.js';
import { callsOf, pinnedSource } from './support/run-source.js';

const PATH =
  'results/core/20250825_swe-agent-mini_claude-4-sonnet/run/fix-permissions/fix-permissions.1-of-1/sessions/agent.log';
const SOURCE = pinnedSource({ path: PATH, licence: 'Apache-2.0', agent: 'mini-swe-agent on Terminal-Bench' });

const ESC = '\x1b';
const spin = (glyph: string) => `${ESC}[32m${glyph}${ESC}[0m Waiting for the LM to respond...\r${ESC}[2K`;
const step = (n: number) =>
  `${ESC}[1;31mmini-swe-agent${ESC}[0m${ESC}[31m (step ${ESC}[0m${ESC}[1;31m${n}${ESC}[0m${ESC}[31m, ${ESC}[0m${ESC}[1;31m$0.0${n}${ESC}[0m${ESC}[31m):${ESC}[0m\r`;
const rule = `${ESC}[92m${'─'.repeat(40)}${ESC}[0m\r`;
const user = `${ESC}[1;32mUser${ESC}[0m:\r`;

// A recorded pane: the task, two turns that run the same failing command, a third that reads a file,
// and the noise a library printed between an answer and the next step.
const SCREEN = [
  'root@7add946a851e:/app# mini -m anthropic/claude-sonnet-4 -t "Fix the script" -y --exit-immediately\r',
  `${user}`,
  'Please solve this issue: the script /app/run.sh fails.\r',
  rule,
  `${spin('⠋')}${spin('⠙')}`,
  step(1),
  `${spin('⠹')}THOUGHT: Let me run the script to see how it fails.\r`,
  '\r',
  '```bash\r',
  './run.sh\r',
  '```\r',
  `${spin('⠹')}\r`,
  `${ESC}[?25h\r${ESC}[1A${ESC}[2K\r`,
  user,
  '<returncode>126</returncode>\r',
  '<output>\r',
  'bash: ./run.sh: Permission denied\r',
  '</output>\r',
  rule,
  '04:07:00 - LiteLLM:ERROR: litellm_logging.py:4483 - Error creating standard logging object\r',
  step(2),
  `${spin('⠦')}THOUGHT: Let me try running it again.\r`,
  '```bash\r',
  './run.sh\r',
  '```\r',
  user,
  '04:07:03 - LiteLLM:ERROR: litellm_logging.py:4483 - Error creating standard logging object\r',
  'Traceback (most recent call last):\r',
  "ModuleNotFoundError: No module named 'backoff'\r",
  '<returncode>126</returncode>\r',
  '<output>\r',
  'bash: ./run.sh: Permission denied\r',
  '</output>\r',
  rule,
  step(3),
  'THOUGHT: I will look at the file mode.\r',
  '```bash\r',
  'ls -l run.sh\r',
  '```\r',
  user,
  '<returncode>0</returncode>\r',
  '<output>\r',
  '-rw-r--r-- 1 root root 42 Aug  8 03:57 run.sh\r',
  '</output>\r',
  rule,
  "Saved trajectory to '/root/.config/mini-swe-agent/last_mini_run.traj.json'\r",
].join('\n');

describe('mini-swe-agent screens', () => {
  it('reads each step of a recorded pane as a model turn and the answer it got', () => {
    const messages = miniScreenMessages(SCREEN);
    expect(messages.map((message) => message.role)).toEqual([
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(messages[0]?.content).toBe(
      'THOUGHT: Let me run the script to see how it fails.\n\n```bash\n./run.sh\n```',
    );
    expect(messages[1]?.content).toBe(
      '<returncode>126</returncode>\n<output>\nbash: ./run.sh: Permission denied\n</output>',
    );
  });

  it('turns the commands of a recorded pane into bash calls with their outputs and exit codes', () => {
    const run = convertMiniScreen(
      SCREEN,
      SOURCE,
      'terminal-bench-mini-fix-permissions',
      'mini-swe-agent run',
    );
    const calls = callsOf(run.events);
    expect(calls.map((call) => call.args)).toEqual([
      { command: './run.sh' },
      { command: './run.sh' },
      { command: 'ls -l run.sh' },
    ]);
    expect(calls.map((call) => call.result?.isError ?? false)).toEqual([true, true, false]);
    expect(calls[2]?.result?.content).toContain('-rw-r--r-- 1 root root 42');
  });

  it('leaves out what other programs printed between an answer and the next step', () => {
    const messages = miniScreenMessages(SCREEN);
    expect(messages.some((message) => message.content.includes('LiteLLM'))).toBe(false);
    expect(messages.some((message) => message.content.includes('Saved trajectory'))).toBe(false);
  });

  it('starts an answer at its return code when another process wrote to the pane before it', () => {
    const messages = miniScreenMessages(SCREEN);
    expect(messages[3]?.content).toBe(
      '<returncode>126</returncode>\n<output>\nbash: ./run.sh: Permission denied\n</output>',
    );
  });

  it('reads nothing from a screen on which the agent never took a step', () => {
    expect(
      miniScreenMessages(
        'root@7add946a851e:/app# source /installed-agent/install-agent.sh\r\nINSTALL_FAIL_STATUS\r\n',
      ),
    ).toEqual([]);
  });
});
