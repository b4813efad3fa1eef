import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServer, createAgent, type McpServer, parseCommand } from '../../src/agent/index.js';
import { eventLog, modelOn, scriptedServer } from './support/agent.js';

const filesystemServer = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

describe('the agent with the MCP filesystem server', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('reads, edits, and is refused a repeated failing read', async () => {
    const project = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-agent-fs-')));
    cleanups.push(() => rmSync(project, { recursive: true, force: true }));
    const notes = join(project, 'notes.md');
    const missing = join(project, 'missing.md');
    writeFileSync(notes, 'hello\n');
    const mcp: McpServer = await connectMcpServer({
      command: process.execPath,
      args: [filesystemServer, project],
    });
    cleanups.push(() => mcp.close());
    const server = await scriptedServer([
      { toolCalls: [{ name: 'read_text_file', args: { path: missing } }] },
      { toolCalls: [{ name: 'read_text_file', args: { path: missing } }] },
      { toolCalls: [{ name: 'read_text_file', args: { path: notes } }] },
      {
        toolCalls: [
          {
            name: 'edit_file',
            args: { path: notes, edits: [{ oldText: 'hello', newText: 'hello, world' }] },
          },
        ],
      },
      { text: 'notes.md now greets the world.' },
    ]);
    const log = eventLog();
    const agent = await createAgent({
      model: modelOn(server),
      tools: mcp.tools,
      guard: { store: 'memory', workspaceRoot: project },
      onEvent: log.onEvent,
    });
    cleanups.push(() => agent.close());
    const result = await agent.run('Make notes.md greet the world.');

    expect(result).toMatchObject({ state: 'completed', text: 'notes.md now greets the world.' });
    expect(readFileSync(notes, 'utf8')).toBe('hello, world\n');
    expect(log.ofType('tool-result').map((event) => event.status)).toEqual([
      'failed',
      'refused',
      'ran',
      'ran',
    ]);
    const refusal = log.ofType('tool-result')[1]?.output ?? '';
    expect(refusal).toMatch(/^\[narrowing blocked this call/);
    // The refusal reaches the model as the tool's result.
    const answered = server.requests[2]?.messages.at(-1);
    expect(answered).toMatchObject({ role: 'tool', content: refusal });
  });

  it('splits a server command line, keeping quoted words together', () => {
    expect(parseCommand(`npx -y @modelcontextprotocol/server-filesystem "my project"`)).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', 'my project'],
    });
  });
});
