import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/index.js';
import type { Constraint } from '../../src/core/types.js';
import { resolveGuardPolicy } from '../../src/guard/open.js';
import type { HookEvent } from '../../src/hooks/event.js';
import { handleHookEvent } from '../../src/hooks/handle.js';
import { HOOK_PROTOCOLS } from '../../src/hooks/protocols.js';
import { stateSelectionFor } from '../../src/hooks/state-selection.js';
import { createFileStore } from '../../src/stores/file-store.js';
import { callLookupKey, fileStamp, targetLookupKey } from '../../src/stores/state-index.js';

const SESSION = '0f3c2b9e-8d41-4a7e-b5c6-2e9d7a1f4c83';
let project: string;
let stateDir: string;
beforeEach(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-selection-')));
  stateDir = join(project, '.narrowing');
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(join(project, 'src', 'app.ts'), 'export const app = 1;\n');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

/** A Claude Code event, as its hook receives it. */
function claude(fields: Record<string, unknown>): HookEvent {
  return HOOK_PROTOCOLS['claude-code'].parse({
    session_id: SESSION,
    transcript_path: join(project, '.claude', `${SESSION}.jsonl`),
    cwd: project,
    permission_mode: 'default',
    ...fields,
  });
}

const checkOf = (tool: string, input: object, id = 'toolu_01') =>
  claude({ hook_event_name: 'PreToolUse', tool_name: tool, tool_input: input, tool_use_id: id });
const failed = (tool: string, input: object, error: string, id = 'toolu_02') =>
  claude({
    hook_event_name: 'PostToolUseFailure',
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
    error,
  });
const succeeded = (tool: string, input: object, response: unknown, id = 'toolu_03') =>
  claude({
    hook_event_name: 'PostToolUse',
    tool_name: tool,
    tool_input: input,
    tool_use_id: id,
    tool_response: response,
  });

const selection = (event: HookEvent) =>
  stateSelectionFor(event, createToolCallAdapter(), resolveGuardPolicy({}));

describe('the constraints a hook event needs', () => {
  it('are the ones its call and its file find, for a check before a read', () => {
    const file = join(project, 'src', 'missing.ts');
    const chosen = selection(checkOf('Read', { file_path: file }));
    expect(chosen).not.toBe('all');
    expect(chosen !== 'all' && chosen.keys).toContain(targetLookupKey(file));
  });

  it('include the ones an earlier build learned on a command it keyed otherwise, before a check of it', () => {
    // Keys made before `--` after an operand was kept read this command as the one without it.
    const earlierKey = createToolCallAdapter().describeCall({
      tool: 'Bash',
      args: { command: 'git checkout main src/app.ts' },
    }).failureKey as string;
    const chosen = selection(checkOf('Bash', { command: 'git checkout main -- src/app.ts' }));
    expect(chosen !== 'all' && chosen.keys).toContain(callLookupKey(earlierKey));
  });

  it('are none for a new prompt', () => {
    expect(selection(claude({ hook_event_name: 'UserPromptSubmit', prompt: 'fix the build' }))).toEqual({
      keys: [],
    });
  });

  it('are all of them after an edit that succeeded, which may relieve bans about what it changed', () => {
    const input = { file_path: join(project, 'src', 'app.ts'), old_string: '1', new_string: '2' };
    expect(selection(succeeded('Edit', input, { filePath: input.file_path }))).toBe('all');
  });

  it("are only the call's after an edit that failed, which changed nothing", () => {
    const input = { file_path: join(project, 'src', 'app.ts'), old_string: 'absent', new_string: '2' };
    expect(selection(failed('Edit', input, 'String to replace not found in file.'))).not.toBe('all');
  });

  it("are only the call's after a command that only looks, and all of them after one that may write", () => {
    const response = { stdout: 'app.ts\n', stderr: '', interrupted: false };
    expect(selection(succeeded('Bash', { command: 'ls src' }, response))).not.toBe('all');
    expect(selection(succeeded('Bash', { command: 'npm install' }, response))).toBe('all');
  });
});

describe('a hook without its helper, on a large state read through its index', () => {
  /** Unrelated bans learned earlier, written by the file store as a project's state is. */
  async function learnedEarlier(count: number): Promise<void> {
    const now = Date.now();
    const constraints = Array.from({ length: count }, (_, i): Constraint => {
      const target = join(project, 'gen', `missing-${i}.ts`);
      return {
        id: `c_${i.toString(16).padStart(16, '0')}`,
        type: 'banned_strategy',
        scope: 'call',
        signature: 'file_not_found',
        actionClass: 'file_read',
        tool: 'Read',
        callKey: `Read#${i.toString(16).padStart(16, '0')}`,
        keyHash: 2,
        target,
        meaning: 'target-missing',
        dependsOnWorkspace: false,
        evidence: { failures: 1, firstAt: now, lastAt: now, lastError: 'File does not exist.', calls: [] },
        createdAt: now,
        expiresAt: now + 3_600_000,
        strikes: 0,
        probation: false,
        persistent: true,
      };
    });
    const store = createFileStore({ path: join(stateDir, 'state.json') });
    store.save({ version: 1, savedAt: now, constraints, lifted: [] });
    await store.close();
  }

  const options = () => ({ stateDir, onProblem: (message: string) => problems.push(message) });
  let problems: string[];
  beforeEach(() => {
    problems = [];
  });

  it('denies a read of a file it learned is missing, and keeps every earlier ban', async () => {
    await learnedEarlier(2_000);
    const missing = join(project, 'src', 'config.ts');
    const stamp = fileStamp(join(stateDir, 'state.json'));
    // Reads that teach nothing write nothing: the large state is left as it was.
    await handleHookEvent(checkOf('Read', { file_path: join(project, 'src', 'app.ts') }), options());
    expect(fileStamp(join(stateDir, 'state.json'))).toBe(stamp);
    await handleHookEvent(checkOf('Read', { file_path: missing }, 'toolu_a'), options());
    await handleHookEvent(
      failed('Read', { file_path: missing }, 'File does not exist.', 'toolu_a'),
      options(),
    );
    const verdict = await handleHookEvent(checkOf('Read', { file_path: missing }, 'toolu_b'), options());
    expect(verdict.type).toBe('deny');
    const all = createFileStore({ path: join(stateDir, 'state.json') }).load();
    expect(all?.constraints.length).toBeGreaterThan(2_000);
    expect(problems).toEqual([]);
  });

  it('denies an edit again that the settings file rejected for what it would write', async () => {
    await learnedEarlier(2_000);
    const settings = join(project, '.claude', 'settings.json');
    mkdirSync(join(project, '.claude'));
    writeFileSync(settings, '{ "permissions": { "allow": "Bash(npm test)" } }\n');
    const edit = {
      file_path: settings,
      old_string: '"allow": "Bash(npm test)"',
      new_string: '"allow": "Bash(*)"',
    };
    await handleHookEvent(checkOf('Edit', edit, 'toolu_a'), options());
    await handleHookEvent(
      failed(
        'Edit',
        edit,
        'Claude Code settings.json validation failed after edit:\n- permissions.allow: Expected array, but received string',
        'toolu_a',
      ),
      options(),
    );
    const verdict = await handleHookEvent(checkOf('Edit', edit, 'toolu_b'), options());
    expect(verdict.type).toBe('deny');
    expect(problems).toEqual([]);
  });
});
