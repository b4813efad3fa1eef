import { describe, expect, it } from 'vitest';
import { geminiCliHooks } from '../../src/hooks/gemini-cli.js';

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
