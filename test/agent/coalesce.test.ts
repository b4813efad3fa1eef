import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgentTool, createAgent, defineTool } from '../../src/agent/index.js';
import { eventLog, modelOn, scriptedServer } from './support/agent.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function stateFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'narrowing-agent-coalesce-'));
  folders.push(folder);
  return folder;
}

const readMissing = { name: 'read_file', args: { path: 'config/prod.yaml' } };

function journalVerdicts(path: string): string[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; verdict?: string })
    .filter((entry) => entry.type === 'proposal')
    .map((entry) => entry.verdict ?? '');
}

/** `read_file` as the agent defines it, running `execute` on each call. */
function readFileTool(execute: (args: { path?: unknown }) => string): AgentTool {
  return defineTool({
    name: 'read_file',
    description: 'Reads a file of the project.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
    execute,
  });
}

/** Runs the agent once on a scripted model with `tools` and `guard`; returns its result and events. */
async function runScripted(
  tools: AgentTool[],
  script: Parameters<typeof scriptedServer>[0],
  prompt: string,
  guard: Parameters<typeof createAgent>[0]['guard'] = { store: 'memory' },
) {
  const server = await scriptedServer(script);
  const log = eventLog();
  const agent = await createAgent({ model: modelOn(server), tools, guard, onEvent: log.onEvent });
  const result = await agent.run(prompt);
  await agent.close();
  return { result, log };
}

const failingRead = (count: () => void) => (args: { path?: unknown }) => {
  count();
  throw new Error(`ENOENT: no such file or directory, open '${String(args.path)}'`);
};

describe('identical calls in one model response', () => {
  it('run a failing call once and answer the duplicates from it, recorded as coalesced', async () => {
    let runs = 0;
    const state = stateFolder();
    const { result, log } = await runScripted(
      [readFileTool(failingRead(() => (runs += 1)))],
      [{ toolCalls: [readMissing, readMissing, readMissing] }, { text: 'config/prod.yaml does not exist.' }],
      'What are the production settings?',
      { stateDir: state, journal: join(state, 'journal.jsonl') },
    );

    expect(result.text).toBe('config/prod.yaml does not exist.');
    expect(runs).toBe(1);
    expect(log.ofType('tool-call').map((event) => event.verdict)).toEqual([
      'allow',
      'coalesced',
      'coalesced',
    ]);
    const outputs = log.ofType('tool-result').map((event) => event.output);
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]).toContain('ENOENT');
    expect(journalVerdicts(join(state, 'journal.jsonl'))).toEqual(['allow', 'coalesced', 'coalesced']);
  });

  it('run a successful read again, as reads change nothing', async () => {
    let runs = 0;
    const readFile = readFileTool(() => {
      runs += 1;
      return 'mode: production';
    });
    const { log } = await runScripted(
      [readFile],
      [{ toolCalls: [readMissing, readMissing] }, { text: 'The mode is production.' }],
      'What are the production settings?',
    );

    expect(runs).toBe(2);
    expect(log.ofType('tool-call').map((event) => event.verdict)).toEqual(['allow', 'allow']);
  });

  it('send a message once when the model asks twice in one response', async () => {
    const sent: unknown[] = [];
    const sendMessage = defineTool({
      name: 'send_message',
      description: 'Sends a chat message to a channel.',
      inputSchema: {
        type: 'object',
        properties: { channel: { type: 'string' }, text: { type: 'string' } },
        required: ['channel', 'text'],
      },
      execute: (args) => {
        sent.push(args);
        return 'sent';
      },
    });
    const message = { name: 'send_message', args: { channel: '#deploys', text: 'Release 4.2 is out.' } };
    const { log } = await runScripted(
      [sendMessage],
      [{ toolCalls: [message, message] }, { text: 'Announced.' }],
      'Announce the release.',
    );

    expect(sent).toHaveLength(1);
    expect(log.ofType('tool-result').map((event) => [event.status, event.output])).toEqual([
      ['ran', 'sent'],
      ['coalesced', 'sent'],
    ]);
  });

  it('leave identical calls of different responses to the guard', async () => {
    let runs = 0;
    const { log } = await runScripted(
      [readFileTool(failingRead(() => (runs += 1)))],
      [{ toolCalls: [readMissing] }, { toolCalls: [readMissing] }, { text: 'It is missing.' }],
      'What are the production settings?',
    );

    expect(runs).toBe(1);
    expect(log.ofType('tool-call').map((event) => event.verdict)).toEqual(['allow', 'block']);
  });
});
