import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { openGuardSync } from '../../src/guard/open.js';
import { VERDICT_META_KEY, type VerdictMeta } from '../../src/guard/verdict.js';
import {
  cleanupsAfterEach,
  nodeServer,
  probeLog,
  spawnProxy,
  startInProcess,
  tempDir,
  textOf,
} from './support/harness.js';
import { FILESYSTEM_SERVER, PROBE_SERVER } from './support/paths.js';
import { ScriptedGuard } from './support/scripted-guard.js';

const quiet = () => undefined;
const verdictOf = (result: CallToolResult) => result._meta?.[VERDICT_META_KEY] as VerdictMeta | undefined;

const cleanups = cleanupsAfterEach();

function workspace() {
  const dir = tempDir();
  cleanups.push(dir.remove);
  const work = join(dir.path, 'work');
  const state = join(dir.path, 'state');
  mkdirSync(work);
  mkdirSync(state);
  return { dir: dir.path, work, state };
}

function probe(stateDir: string) {
  const log = join(stateDir, 'probe.jsonl');
  return {
    log,
    target: {
      kind: 'command' as const,
      command: process.execPath,
      args: [PROBE_SERVER],
      env: { PROBE_LOG: log },
    },
  };
}

describe('narrowing through the proxy, with server-filesystem', () => {
  it('blocks a read of a missing file by the third identical attempt at the latest', async () => {
    const { work, state } = workspace();
    const proxy = await startInProcess({
      target: nodeServer(FILESYSTEM_SERVER, work),
      guard: openGuardSync({ stateDir: state, onProblem: quiet }),
    });
    cleanups.push(() => proxy.close());
    const call = { name: 'read_text_file', arguments: { path: join(work, 'missing.txt') } };

    const first = (await proxy.client.callTool(call)) as CallToolResult;
    expect(first.isError).toBe(true);
    expect(textOf(first)).toContain('ENOENT');
    expect(verdictOf(first)).toBeUndefined();

    const later = [
      (await proxy.client.callTool(call)) as CallToolResult,
      (await proxy.client.callTool(call)) as CallToolResult,
    ];
    const blocked = later.find((result) => verdictOf(result)?.verdict === 'block');
    expect(blocked).toBeDefined();
    expect(blocked?.isError).toBe(true);
    expect(textOf(blocked!)).toMatch(/^\[narrowing blocked this call/);
    expect(verdictOf(blocked!)?.reason).toContain('missing.txt');
    expect(verdictOf(blocked!)?.violations.length).toBeGreaterThan(0);
  });

  it('never blocks reading, editing and reading the same file again', async () => {
    const { work, state } = workspace();
    const file = join(work, 'notes.md');
    writeFileSync(file, 'draft 0\n');
    const proxy = await startInProcess({
      target: nodeServer(FILESYSTEM_SERVER, work),
      guard: openGuardSync({ stateDir: state, onProblem: quiet }),
    });
    cleanups.push(() => proxy.close());

    for (let round = 0; round < 6; round += 1) {
      const read = (await proxy.client.callTool({
        name: 'read_text_file',
        arguments: { path: file },
      })) as CallToolResult;
      expect(read.isError ?? false).toBe(false);
      expect(textOf(read)).toBe(`draft ${round}\n`);
      const edit = (await proxy.client.callTool({
        name: 'edit_file',
        arguments: { path: file, edits: [{ oldText: `draft ${round}`, newText: `draft ${round + 1}` }] },
      })) as CallToolResult;
      expect(edit.isError ?? false).toBe(false);
      expect(verdictOf(edit)).toBeUndefined();
    }
  });

  it('keeps what it learned when the proxy restarts with the same state directory', async () => {
    const { work, state } = workspace();
    const args = ['--state-dir', state, '--', process.execPath, FILESYSTEM_SERVER, work];
    const call = { name: 'read_text_file', arguments: { path: join(work, 'missing.txt') } };

    const before = await spawnProxy(args);
    cleanups.push(() => before.close());
    let learned = false;
    for (let attempt = 0; attempt < 3 && !learned; attempt += 1) {
      learned = verdictOf((await before.client.callTool(call)) as CallToolResult)?.verdict === 'block';
    }
    expect(learned).toBe(true);
    expect(await before.close()).toBe(0);

    const after = await spawnProxy(args);
    cleanups.push(() => after.close());
    const first = (await after.client.callTool(call)) as CallToolResult;
    expect(verdictOf(first)?.verdict).toBe('block');
  });
});

describe('narrowing through the proxy, with a server that reports its own state', () => {
  it('does not call the server for a blocked call', async () => {
    const { state } = workspace();
    const { log, target } = probe(state);
    const proxy = await startInProcess({
      target,
      guard: openGuardSync({ stateDir: state, onProblem: quiet }),
    });
    cleanups.push(() => proxy.close());

    const results: CallToolResult[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      results.push(
        (await proxy.client.callTool({ name: 'read_note', arguments: { name: 'todo' } })) as CallToolResult,
      );
    }
    const refused = results.filter((result) => verdictOf(result)?.verdict === 'block').length;
    expect(refused).toBeGreaterThan(0);
    const reached = probeLog(log).filter((entry) => entry.event === 'call' && entry.tool === 'read_note');
    expect(reached).toHaveLength(results.length - refused);
  });

  it('lets a call it would block run under advisory enforcement, with a note for the model', async () => {
    const { state } = workspace();
    const { log, target } = probe(state);
    const proxy = await startInProcess({
      target,
      guard: openGuardSync({ stateDir: state, enforcement: 'advisory', onProblem: quiet }),
    });
    cleanups.push(() => proxy.close());

    const results: CallToolResult[] = [];
    for (let attempt = 0; attempt < 3; attempt += 1) {
      results.push(
        (await proxy.client.callTool({ name: 'read_note', arguments: { name: 'todo' } })) as CallToolResult,
      );
    }
    expect(probeLog(log).filter((entry) => entry.event === 'call')).toHaveLength(3);
    expect(verdictOf(results[2]!)).toMatchObject({ verdict: 'warn', softened: true });
    expect(textOf(results[2]!)).toContain('ENOENT');
    expect(textOf(results[2]!)).toContain('narrowing would have blocked this call');
  });

  it('appends a warning to a warned call, after the server’s own content', async () => {
    const { state } = workspace();
    const proxy = await startInProcess({
      target: probe(state).target,
      guard: openGuardSync({ stateDir: state, onProblem: quiet }),
    });
    cleanups.push(() => proxy.close());

    let warned: CallToolResult | undefined;
    for (let attempt = 0; attempt < 5 && !warned; attempt += 1) {
      const result = (await proxy.client.callTool({
        name: 'echo',
        arguments: { text: 'status: unchanged' },
      })) as CallToolResult;
      if (verdictOf(result)?.verdict === 'warn') warned = result;
    }
    expect(warned).toBeDefined();
    expect(warned?.isError ?? false).toBe(false);
    expect(warned?.content[0]).toEqual({ type: 'text', text: 'status: unchanged' });
    expect(warned?.content[1]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^\[narrowing warning/),
    });
  });

  it('receives the server’s non-advancing flag in _meta over the real transport', async () => {
    const { state } = workspace();
    const guard = new ScriptedGuard();
    const proxy = await startInProcess({ target: probe(state).target, guard });
    cleanups.push(() => proxy.close());

    const result = (await proxy.client.callTool({
      name: 'search_catalog',
      arguments: { query: 'gpu quota' },
    })) as CallToolResult;
    expect(result._meta).toEqual({ 'dev.narrowing/non-advancing': true, 'dev.example/source': 'probe' });
    expect(guard.outcomes[0]?.meta).toEqual({
      'dev.narrowing/non-advancing': true,
      'dev.example/source': 'probe',
    });
  });

  it('stops a tool whose results keep saying nothing new, whatever the query', async () => {
    const { state } = workspace();
    const { log, target } = probe(state);
    const proxy = await startInProcess({
      target,
      guard: openGuardSync({ stateDir: state, onProblem: quiet }),
    });
    cleanups.push(() => proxy.close());

    const verdicts: (string | undefined)[] = [];
    for (const query of ['gpu quota', 'gpu limits', 'accelerator quota', 'tpu quota', 'quota increase']) {
      const result = (await proxy.client.callTool({
        name: 'search_catalog',
        arguments: { query },
      })) as CallToolResult;
      verdicts.push(verdictOf(result)?.verdict);
    }
    expect(verdicts.slice(0, 2)).toEqual([undefined, undefined]);
    expect(verdicts.at(-1)).toBe('block');
    const reached = probeLog(log).filter((entry) => entry.event === 'call').length;
    expect(reached).toBe(verdicts.filter((verdict) => verdict !== 'block').length);
  });
});
