import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runAgentCommand } from '../../src/cli/commands/agent.js';
import { captureIO } from '../cli/commands/cli-io.js';
import { scriptedServer } from './support/agent.js';

const filesystemServer = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-filesystem/dist/index.js',
);

describe('narrowing agent', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function project(): string {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-agent-cli-')));
    dirs.push(dir);
    writeFileSync(join(dir, 'README.md'), '# Demo\nA tiny project.\n');
    return dir;
  }

  it('completes a task with MCP tools, streaming the answer and reporting each verdict', async () => {
    const dir = project();
    const server = await scriptedServer([
      { toolCalls: [{ name: 'read_text_file', args: { path: join(dir, 'README.md') } }] },
      { text: 'It is a tiny project.' },
    ]);
    const capture = captureIO({ env: { TEST_KEY: 'secret' } });
    const code = await runAgentCommand(
      'Summarise README.md',
      {
        model: 'scripted',
        baseUrl: server.baseURL,
        apiKeyEnv: 'TEST_KEY',
        mcp: [`"${process.execPath}" "${filesystemServer}" "${dir}"`],
        stream: true,
        stateDir: join(dir, '.narrowing'),
        maxSteps: 10,
      },
      capture.io,
    );
    expect(code).toBe(0);
    expect(capture.stdout()).toBe('It is a tiny project.\n');
    expect(capture.stderr()).toMatch(/^allow read_text_file \{"path":".*README\.md"\}\n/);
    expect(capture.stderr()).toMatch(/completed: the model ended its turn \(2 steps, 30 tokens\)\n$/);
  });

  it('exits with 1 and says why when the run does not complete', async () => {
    const dir = project();
    const server = await scriptedServer([{ status: 400, message: 'unknown model' }]);
    const capture = captureIO();
    const code = await runAgentCommand(
      'Anything',
      {
        model: 'nope',
        baseUrl: server.baseURL,
        apiKeyEnv: 'TEST_KEY',
        mcp: [],
        stream: false,
        stateDir: join(dir, '.narrowing'),
      },
      capture.io,
    );
    expect(code).toBe(1);
    expect(capture.stderr()).toMatch(/^error: the model request failed: unknown model/m);
  });

  it('keeps the reserve of a policy file when no budget flag is given, and says "1 step"', async () => {
    const dir = project();
    const policy = join(dir, 'policy.json');
    writeFileSync(policy, JSON.stringify({ budget: { tokenBudget: 100, reserveTokens: 100 } }));
    const server = await scriptedServer([{ text: 'Answered within the reserve.' }]);
    const capture = captureIO();
    const code = await runAgentCommand(
      'Anything',
      {
        model: 'scripted',
        baseUrl: server.baseURL,
        apiKeyEnv: 'TEST_KEY',
        mcp: [],
        stream: false,
        stateDir: join(dir, '.narrowing'),
        policy,
      },
      capture.io,
    );
    expect(code).toBe(1);
    expect(capture.stdout()).toBe('Answered within the reserve.\n');
    expect(capture.stderr()).toMatch(
      /^budget_exceeded: This session has used 0 of its 100 tokens.*\(1 step, 15 tokens\)\n$/m,
    );
  });

  it('says "cancelled: interrupted" once, with "1 step", when the user presses Ctrl-C', async () => {
    const dir = project();
    const ours = new Set(process.listeners('SIGINT'));
    let requests = 0;
    // A model that reads README.md in its first step and is still thinking about the second when
    // the user presses Ctrl-C.
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        requests += 1;
        if (requests > 1) {
          for (const listener of process.listeners('SIGINT'))
            if (!ours.has(listener)) (listener as () => void)();
          return;
        }
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 0,
            model: 'scripted',
            choices: [
              {
                index: 0,
                finish_reason: 'tool_calls',
                message: {
                  role: 'assistant',
                  content: null,
                  tool_calls: [
                    {
                      id: 'call_1',
                      type: 'function',
                      function: {
                        name: 'read_text_file',
                        arguments: JSON.stringify({ path: join(dir, 'README.md') }),
                      },
                    },
                  ],
                },
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const capture = captureIO({ env: { TEST_KEY: 'secret' } });
    try {
      const code = await runAgentCommand(
        'Summarise README.md',
        {
          model: 'scripted',
          baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
          apiKeyEnv: 'TEST_KEY',
          mcp: [`"${process.execPath}" "${filesystemServer}" "${dir}"`],
          stream: false,
          stateDir: join(dir, '.narrowing'),
        },
        capture.io,
      );
      expect(code).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    expect(requests).toBe(2);
    expect(capture.stderr()).toMatch(/(^|\n)cancelled: interrupted \(1 step, 15 tokens\)\n$/);
    expect(capture.stderr()).not.toContain('cancelled: cancelled');
  });

  it('takes a reserve, a cost limit and a number of recoveries as flags', async () => {
    const dir = project();
    const server = await scriptedServer([
      { text: 'Cut ', finish: 'length' },
      { text: 'off.', finish: 'length' },
      { text: ' Never read.' },
    ]);
    const capture = captureIO();
    const code = await runAgentCommand(
      'Anything',
      {
        model: 'scripted',
        baseUrl: server.baseURL,
        apiKeyEnv: 'TEST_KEY',
        mcp: [],
        stream: false,
        stateDir: join(dir, '.narrowing'),
        reserveTokens: 10,
        costLimit: 5,
        maxTokenRecoveries: 1,
      },
      capture.io,
    );
    expect(code).toBe(0);
    expect(capture.stdout()).toBe('Cut off.\n');
  });
});
