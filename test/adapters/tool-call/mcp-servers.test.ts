import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCallToOutcome } from '../../../src/adapters/tool-call/convert.js';
import type { ToolAnnotations } from '../../../src/core/types.js';
import { adapter } from './helpers.js';

/** Real servers over stdio: their exact error texts and annotations, not our idea of them. */
async function connect(script: string, args: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [`node_modules/@modelcontextprotocol/${script}/dist/index.js`, ...args],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'narrowing-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

async function callAndDescribe(
  client: Client,
  annotations: Map<string, ToolAnnotations>,
  name: string,
  args: object,
) {
  const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
  const toolAnnotations = annotations.get(name);
  const outcome = toolCallToOutcome(
    name,
    args,
    result,
    toolAnnotations ? { annotations: toolAnnotations } : {},
  );
  const call = adapter.describeCall(outcome.proposal);
  return { call, failure: adapter.describeFailure(outcome, call), outcome };
}

async function annotationsOf(client: Client): Promise<Map<string, ToolAnnotations>> {
  const { tools } = await client.listTools();
  return new Map(tools.map((tool) => [tool.name, (tool.annotations ?? {}) as ToolAnnotations]));
}

describe('the MCP filesystem server', () => {
  let dir: string;
  let client: Client;
  let annotations: Map<string, ToolAnnotations>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'narrowing-fs-'));
    writeFileSync(join(dir, 'a.txt'), 'hello world\n');
    client = await connect('server-filesystem', [dir]);
    annotations = await annotationsOf(client);
  });

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('classifies every tool with its real annotations', () => {
    const kinds = Object.fromEntries(
      [...annotations].map(([name, toolAnnotations]) => [
        name,
        adapter.describeCall({ tool: name, args: {}, annotations: toolAnnotations }).kind,
      ]),
    );
    expect(kinds).toMatchObject({
      read_text_file: 'read',
      read_multiple_files: 'read',
      write_file: 'mutate',
      edit_file: 'mutate',
      create_directory: 'create',
      list_directory: 'read',
      directory_tree: 'read',
      move_file: 'mutate',
      search_files: 'search',
      get_file_info: 'read',
    });
  });

  it('reads a missing file as target-missing', async () => {
    const path = join(dir, 'missing.txt');
    const { call, failure } = await callAndDescribe(client, annotations, 'read_text_file', { path });
    expect(call.targets).toEqual([path]);
    expect(failure).toMatchObject({
      signature: 'file_not_found',
      blame: 'agent_failure',
      meaning: 'target-missing',
    });
  });

  it('reads a path outside the sandbox as the agent’s choice of path', async () => {
    const { failure } = await callAndDescribe(client, annotations, 'read_text_file', {
      path: '/etc/hostname',
    });
    expect(failure).toMatchObject({
      signature: 'permission_denied',
      blame: 'agent_failure',
      meaning: 'call',
    });
  });

  it('reads a failed edit as content-missing with the text it looked for', async () => {
    const args = { path: join(dir, 'a.txt'), edits: [{ oldText: 'goodbye', newText: 'hi' }] };
    const { call, failure } = await callAndDescribe(client, annotations, 'edit_file', args);
    expect(call.writtenText).toBe('hi');
    expect(failure).toMatchObject({
      signature: 'edit_failed',
      meaning: 'content-missing',
      needle: 'goodbye',
    });
  });

  it('keeps a write into a missing directory to the call', async () => {
    const args = { path: join(dir, 'sub', 'deep', 'x.txt'), content: 'x' };
    const { failure } = await callAndDescribe(client, annotations, 'write_file', args);
    expect(failure).toMatchObject({ signature: 'file_not_found', meaning: 'call' });
  });

  it('reads a move onto an existing file as a conflict of that call', async () => {
    const args = { source: join(dir, 'a.txt'), destination: join(dir, 'a.txt') };
    const { failure } = await callAndDescribe(client, annotations, 'move_file', args);
    expect(failure).toMatchObject({ signature: 'conflict', meaning: 'call' });
  });

  it('reads a search that found nothing as empty_result', async () => {
    const { outcome, failure } = await callAndDescribe(client, annotations, 'search_files', {
      path: dir,
      pattern: 'zzz-nothing',
    });
    expect(outcome.success).toBe(true);
    expect(failure?.signature).toBe('empty_result');
  });

  it('reads a successful creation as no failure', async () => {
    const { failure } = await callAndDescribe(client, annotations, 'create_directory', {
      path: join(dir, 'new'),
    });
    expect(failure).toBeUndefined();
  });

  it('reads bad arguments as a validation error', async () => {
    const { failure } = await callAndDescribe(client, annotations, 'read_text_file', {});
    expect(failure).toMatchObject({ signature: 'validation_error', blame: 'agent_failure' });
  });
});

describe('the MCP everything server', () => {
  let client: Client;
  let annotations: Map<string, ToolAnnotations>;

  beforeAll(async () => {
    client = await connect('server-everything');
    annotations = await annotationsOf(client);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('reads an unknown tool as the call’s fault: in this session it fails every time', async () => {
    const { failure } = await callAndDescribe(client, annotations, 'nope', {});
    expect(failure).toMatchObject({
      signature: 'tool_not_found',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('reads arguments of the wrong type as a validation error', async () => {
    const { failure } = await callAndDescribe(client, annotations, 'get-sum', { a: 'x', b: 2 });
    expect(failure).toMatchObject({
      signature: 'validation_error',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('reads a real answer as no failure', async () => {
    const { failure } = await callAndDescribe(client, annotations, 'get-sum', { a: 1, b: 2 });
    expect(failure).toBeUndefined();
  });
});
