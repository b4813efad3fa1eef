import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { geminiCliHooks } from '../../src/hooks/gemini-cli.js';
import { gemini } from './conformance/hosts.js';
import { HostRun, tempProject } from './conformance/scenario.js';

/** Gemini CLI's AfterTool payload (packages/core/src/core/coreToolHookTriggers.ts). */
const afterTool = (toolName: string, toolResponse: unknown) => ({
  session_id: 'gemini-5d2c',
  transcript_path: '/home/dev/.gemini/tmp/chats/session.json',
  cwd: '/home/dev/shop',
  hook_event_name: 'AfterTool',
  timestamp: '2026-11-30T21:04:17.311Z',
  tool_name: toolName,
  tool_input: { command: './scripts/check.sh' },
  tool_response: toolResponse,
});

const resultOf = (payload: unknown) => {
  const { action } = geminiCliHooks.parse(payload);
  if (action.type !== 'after-call') throw new Error(`not an after-call: ${action.type}`);
  return action.result;
};

describe("Gemini CLI's untrusted marks around a tool's text", () => {
  it('reads the exit status of a command whose output Gemini CLI marked as untrusted', () => {
    const result = resultOf(
      afterTool('run_shell_command', {
        llmContent:
          '<untrusted_context>\nOutput: (empty)\nExit Code: 3\nProcess Group PGID: 41872\n</untrusted_context>',
        returnDisplay: 'Command exited with code: 3',
      }),
    );
    expect(result).toEqual({ ok: false, error: '', content: '', exitCode: 3 });
  });

  it("keeps a marked command's own output, with the closing tag it printed given back", () => {
    const result = resultOf(
      afterTool('run_shell_command', {
        llmContent:
          '<untrusted_context>\nOutput: see &lt;/untrusted_context&gt; here\nProcess Group PGID: 41873\n</untrusted_context>',
        returnDisplay: 'see </untrusted_context> here',
      }),
    );
    expect(result).toEqual({ ok: true, content: 'see </untrusted_context> here' });
  });

  it("reads an MCP tool's marked text parts as the tool's own text", () => {
    const result = resultOf({
      ...afterTool('mcp_filesystem_read_text_file', {
        llmContent: [{ text: '<untrusted_context>\n- ship the release notes\n</untrusted_context>' }],
        returnDisplay: '- ship the release notes',
      }),
      tool_input: { path: '/home/dev/shop/notes/todo.md' },
      mcp_context: { server_name: 'filesystem', tool_name: 'read_text_file', command: 'npx' },
    });
    expect(result).toEqual({ ok: true, content: '- ship the release notes' });
  });
});

describe("Gemini CLI's replace and its instruction", () => {
  const projects: { remove: () => void }[] = [];
  afterEach(() => {
    for (const project of projects.splice(0)) project.remove();
  });

  it('denies an edit retried unchanged under a rewritten instruction by its 2nd–3rd attempt', async () => {
    const project = tempProject();
    projects.push(project);
    const run = new HostRun(gemini(), { id: 'gemini-7f3a', cwd: project.dir });
    const filePath = join(project.dir, 'src', 'cart.ts');
    // packages/core/src/tools/edit.ts: no occurrence of old_string.
    const message = `Failed to edit, 0 occurrences found for old_string in ${filePath}. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`;
    const instructions = [
      'Rename the total helper to computeTotal so the call sites read clearly.',
      'Update the function name from total to computeTotal.',
      'Change the name of the total function to computeTotal in cart.ts.',
      'Rename total() to computeTotal().',
    ];
    const base = {
      session_id: 'gemini-7f3a',
      transcript_path: join(project.dir, '.gemini-chat.json'),
      cwd: project.dir,
      timestamp: '2026-11-30T21:04:17.311Z',
      tool_name: 'replace',
    };
    const verdicts: string[] = [];
    for (const instruction of instructions) {
      const tool_input = {
        file_path: filePath,
        instruction,
        old_string: 'export function total(items: Item[])',
        new_string: 'export function computeTotal(items: Item[])',
      };
      const before = await run.send({ ...base, hook_event_name: 'BeforeTool', tool_input });
      verdicts.push(before.verdict);
      if (before.verdict === 'deny') continue;
      await run.send({
        ...base,
        hook_event_name: 'AfterTool',
        tool_input,
        tool_response: {
          llmContent: message,
          returnDisplay: 'Error: Failed to edit, could not find the string to replace.',
          error: { message, type: 'edit_no_occurrence_found' },
        },
      });
    }
    const firstDenied = verdicts.indexOf('deny') + 1;
    expect(firstDenied).toBeGreaterThanOrEqual(2);
    expect(firstDenied).toBeLessThanOrEqual(3);
  });
});

describe('Gemini CLI stopping a command itself', () => {
  const projects: { remove: () => void }[] = [];
  afterEach(() => {
    for (const project of projects.splice(0)) project.remove();
  });

  /**
   * The same command run `times` times, each ending as `llmContent` says (no `error` beside it, as
   * packages/core/src/tools/shell.ts @ 5411f113cafae26161b4969b0237b8e1e024e2c2 answers a command
   * it cancelled); the verdicts before each.
   */
  async function repeatStopped(command: string, llmContent: string, times = 6): Promise<string[]> {
    const project = tempProject();
    projects.push(project);
    const run = new HostRun(gemini(), { id: 'gemini-9c1d', cwd: project.dir });
    const base = {
      session_id: 'gemini-9c1d',
      transcript_path: join(project.dir, '.gemini-chat.json'),
      cwd: project.dir,
      timestamp: '2026-11-30T21:04:17.311Z',
      tool_name: 'run_shell_command',
    };
    const tool_input = { command, description: 'Check that the dev server answers' };
    const verdicts: string[] = [];
    for (let index = 0; index < times; index++) {
      const before = await run.send({ ...base, hook_event_name: 'BeforeTool', tool_input });
      verdicts.push(before.verdict);
      if (before.verdict === 'deny') continue;
      await run.send({
        ...base,
        hook_event_name: 'AfterTool',
        tool_input,
        tool_response: {
          llmContent: `<untrusted_context>\n${llmContent}\n</untrusted_context>`,
          returnDisplay: '',
        },
      });
    }
    return verdicts;
  }

  it('never denies a command Gemini CLI stopped for printing nothing past its timeout', async () => {
    const verdicts = await repeatStopped(
      'curl -sS http://localhost:8787/health',
      'Command was automatically cancelled because it exceeded the timeout of 5.0 minutes without output. There was no output before it was cancelled.',
    );
    expect(verdicts).not.toContain('deny');
  });

  it('learns nothing from a command the user stopped', async () => {
    const verdicts = await repeatStopped(
      'npm run dev',
      'Command was cancelled by user before it could complete. Below is the output before it was cancelled:\n> demo@1.0.0 dev\n> vite',
    );
    expect(verdicts).toEqual(['allow', 'allow', 'allow', 'allow', 'allow', 'allow']);
  });
});

describe('Gemini CLI commands that have not ended, or ended by a signal', () => {
  /** `run_shell_command` asked to run in the background (`is_background`), as shell.ts answers it. */
  const inBackground = (llmContent: string) => ({
    ...afterTool('run_shell_command', {
      llmContent,
      returnDisplay: 'Background process started with PID 48213.',
    }),
    tool_input: { command: 'npm run dev', is_background: true, description: 'Start the dev server' },
  });

  it('learns nothing from a command still running in the background after its first wait', () => {
    const { action } = geminiCliHooks.parse(
      inBackground('Command is running in background. PID: 48213. Initial output:\n> shop@1.0.0 dev\n> vite'),
    );
    expect(action.type).toBe('ignored');
  });

  it('learns nothing from a command moved to the background while it ran', () => {
    const { action } = geminiCliHooks.parse(
      inBackground(
        '<untrusted_context>\nCommand moved to background (PID: 48213). Output hidden. Press Ctrl+B to view.\n</untrusted_context>',
      ),
    );
    expect(action.type).toBe('ignored');
  });

  it('reads a command ended by a signal, with no exit code, as a failure', () => {
    const result = resultOf(
      afterTool('run_shell_command', {
        llmContent:
          '<untrusted_context>\nOutput: Building 412 modules...\nSignal: 9\nProcess Group PGID: 51207\n</untrusted_context>',
        returnDisplay: 'Command terminated by signal: 9',
      }),
    );
    expect(result.ok).toBe(false);
  });
});
