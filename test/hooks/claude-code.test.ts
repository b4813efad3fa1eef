import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHook, type HookRun, runHookProcess, tempProject } from './support.js';

let hook: Awaited<ReturnType<typeof buildHook>>;
const projects: (() => Promise<void>)[] = [];
beforeAll(async () => {
  hook = await buildHook();
});
afterAll(async () => {
  await Promise.all(projects.map((remove) => remove()));
  hook.remove();
});

/** A project and the payloads Claude Code sends for it, in Claude Code's exact shape. */
function claudeSession(sessionId = 'b3f1c2d4-0e5a-4c1b-9d7e-2f6a8b9c0d1e') {
  const project = tempProject();
  projects.push(project.remove);
  const dir = project.dir;
  const base = (session = sessionId) => ({
    session_id: session,
    transcript_path: join(dir, '.claude', 'projects', `${session}.jsonl`),
    cwd: dir,
    permission_mode: 'default',
  });
  let ids = 0;
  const nextId = () => `toolu_01${String(++ids).padStart(6, '0')}`;
  const send = (payload: unknown, args: readonly string[] = []) =>
    runHookProcess(hook.path, ['claude-code', ...args], payload);
  return {
    dir,
    base,
    send,
    pre: (tool: string, input: object, id = nextId(), session?: string) =>
      send({
        ...base(session),
        hook_event_name: 'PreToolUse',
        tool_name: tool,
        tool_input: input,
        tool_use_id: id,
      }),
    post: (tool: string, input: object, response: unknown, id = nextId(), session?: string) =>
      send({
        ...base(session),
        hook_event_name: 'PostToolUse',
        tool_name: tool,
        tool_input: input,
        tool_use_id: id,
        tool_response: response,
      }),
    failure: (tool: string, input: object, error: string, id = nextId()) =>
      send({
        ...base(),
        hook_event_name: 'PostToolUseFailure',
        tool_name: tool,
        tool_input: input,
        tool_use_id: id,
        error,
      }),
    event: (name: string, fields: object = {}, session?: string) =>
      send({ ...base(session), hook_event_name: name, ...fields }),
  };
}

function denied(run: HookRun): string | undefined {
  const output = run.json?.hookSpecificOutput as Record<string, unknown> | undefined;
  return output?.permissionDecision === 'deny' ? String(output.permissionDecisionReason) : undefined;
}

const readResponse = (path: string, content: string) => ({
  type: 'text',
  file: { filePath: path, content, numLines: 1, startLine: 1, totalLines: 1 },
});

/** Reads an existing file `times` times, each call reported before and after, as Claude Code does. */
async function readRepeatedly(session: ReturnType<typeof claudeSession>, path: string, times: number) {
  for (let i = 0; i < times; i += 1) {
    await session.pre('Read', { file_path: path });
    await session.post('Read', { file_path: path }, readResponse(path, 'export const limit = 10;\n'));
  }
}

describe('narrowing-guard hook claude-code', () => {
  it('denies reading a missing file again, with the reason in permissionDecisionReason', async () => {
    const session = claudeSession();
    const input = { file_path: join(session.dir, 'src/config.ts') };
    const first = await session.pre('Read', input);
    expect(first).toMatchObject({ code: 0, stdout: '' });
    await session.failure('Read', input, `File does not exist. Current working directory: ${session.dir}`);

    const again = await session.pre('Read', input);
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
    expect(denied(again)).toContain('identical-failure');
    expect(denied(again)).toContain('config.ts');
  });

  it('never denies an edit → test → edit cycle', async () => {
    const session = claudeSession();
    const file = join(session.dir, 'src/sum.ts');
    writeFileSync(join(session.dir, 'package.json'), '{"scripts":{"test":"vitest run"}}\n');
    const verdicts: HookRun[] = [];
    for (let round = 1; round <= 4; round += 1) {
      const edit = {
        file_path: file,
        old_string: `return a + b + ${round - 1};`,
        new_string: `return a + b + ${round};`,
      };
      verdicts.push(await session.pre('Edit', edit));
      await session.post('Edit', edit, {
        filePath: file,
        oldString: edit.old_string,
        newString: edit.new_string,
      });
      const test = { command: 'npm test', description: 'Run the tests' };
      verdicts.push(await session.pre('Bash', test));
      await session.failure(
        'Bash',
        test,
        `Exit code 1\n FAIL  test/sum.test.ts > adds two numbers\nAssertionError: expected ${3 + round} to be 3`,
      );
    }
    expect(verdicts.map(denied)).toEqual(verdicts.map(() => undefined));
  });

  it('starts a new run on a new prompt: streaks restart, learned bans stay', async () => {
    const session = claudeSession();
    const config = join(session.dir, 'src/config.ts');
    await session.pre('Read', { file_path: config });
    await session.failure('Read', { file_path: config }, 'File does not exist.');
    const readme = join(session.dir, 'README.md');
    await readRepeatedly(session, readme, 4);
    expect(denied(await session.pre('Read', { file_path: readme }))).toContain('identical-result');

    await session.event('UserPromptSubmit', { prompt: 'Now add a test for the limit.' });
    expect(denied(await session.pre('Read', { file_path: readme }))).toBeUndefined();
    expect(denied(await session.pre('Read', { file_path: config }))).toContain('identical-failure');
  });

  it('lets the agent read again what a compaction made it forget, and keeps bans on missing files', async () => {
    const session = claudeSession();
    const config = join(session.dir, 'src/config.ts');
    await session.pre('Read', { file_path: config });
    await session.failure('Read', { file_path: config }, 'File does not exist.');
    const readme = join(session.dir, 'README.md');
    await readRepeatedly(session, readme, 4);
    expect(denied(await session.pre('Read', { file_path: readme }))).toContain('identical-result');

    await session.event('PreCompact', { trigger: 'auto', custom_instructions: '' });
    await session.event('SessionStart', { source: 'compact' });
    expect(denied(await session.pre('Read', { file_path: readme }))).toBeUndefined();
    expect(denied(await session.pre('Read', { file_path: config }))).toContain('identical-failure');
  });

  it('denies re-reading the same files in a second compaction cycle that learned nothing', async () => {
    const session = claudeSession();
    const files = [join(session.dir, 'README.md'), join(session.dir, 'src/limits.ts')];
    const readAll = async () => {
      const verdicts: (string | undefined)[] = [];
      for (const path of files) {
        const pre = await session.pre('Read', { file_path: path });
        verdicts.push(denied(pre));
        if (denied(pre) === undefined)
          await session.post('Read', { file_path: path }, readResponse(path, `// ${path}\n`));
      }
      return verdicts;
    };
    const compact = async () => {
      await session.event('PreCompact', { trigger: 'auto', custom_instructions: '' });
      await session.event('SessionStart', { source: 'compact' });
    };
    await readAll();
    await compact();
    expect(await readAll()).toEqual([undefined, undefined]);
    await compact();
    const [first, second] = await readAll();
    expect(first).toBeUndefined();
    expect(second).toContain('compacted again');
  });

  it('denies a missing npm script in the next session until package.json changes', async () => {
    const session = claudeSession('5c2d9e1f-first');
    writeFileSync(join(session.dir, 'package.json'), '{ "scripts": { "test": "vitest run" } }\n');
    const lint = { command: 'npm run lint', description: 'Lint the project' };
    await session.pre('Bash', lint);
    await session.failure(
      'Bash',
      lint,
      'Exit code 1\nnpm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run',
    );

    const next = '7e4a0b2c-next';
    await session.event('SessionStart', { source: 'startup' }, next);
    expect(denied(await session.pre('Bash', lint, undefined, next))).toContain('package.json');
    writeFileSync(
      join(session.dir, 'package.json'),
      '{ "scripts": { "test": "vitest run", "lint": "biome check ." } }\n',
    );
    expect(denied(await session.pre('Bash', lint, undefined, next))).toBeUndefined();
  });

  it('denies a failed edit again until the file is changed by hand, then lets it through', async () => {
    const session = claudeSession('9a3e5f7b-edit');
    const file = join(session.dir, 'limits.ts');
    writeFileSync(file, 'export const limit = 2;\n');
    const edit = { file_path: file, old_string: 'limit = 10', new_string: 'limit = 5' };
    await session.pre('Edit', edit);
    await session.failure('Edit', edit, 'String to replace not found in file.\nString: limit = 10');
    expect(denied(await session.pre('Edit', edit))).toContain('limits.ts');
    // The user changes the file in an editor: no call of the agent's touched it.
    writeFileSync(file, 'export const limit = 10;\n');
    expect(denied(await session.pre('Edit', edit))).toBeUndefined();
  });

  it('lets the agent read again a file the user changed since, where it denies an unchanged one', async () => {
    const session = claudeSession('4d8b2a6c-notes');
    const file = join(session.dir, 'notes.md');
    writeFileSync(file, '# Notes\n');
    const read = async () => {
      const verdict = await session.pre('Read', { file_path: file });
      await session.post('Read', { file_path: file }, readResponse(file, '# Notes\n'));
      return denied(verdict);
    };
    for (let time = 0; time < 4; time += 1) await read();
    expect(denied(await session.pre('Read', { file_path: file }))).toBeDefined();
    writeFileSync(file, '# Notes\n- from the user\n');
    expect(denied(await session.pre('Read', { file_path: file }))).toBeUndefined();
  });

  it('continues a resumed session where it stopped, and starts a new session afresh', async () => {
    const session = claudeSession('8a1e2b3c-resumed');
    const readme = join(session.dir, 'README.md');
    await readRepeatedly(session, readme, 4);

    await session.event('SessionStart', { source: 'resume' });
    expect(denied(await session.pre('Read', { file_path: readme }))).toContain('identical-result');
    await session.event('SessionStart', { source: 'startup' }, '9f0d-new-session');
    expect(
      denied(await session.pre('Read', { file_path: readme }, undefined, '9f0d-new-session')),
    ).toBeUndefined();
  });

  it('loses no update when hook processes of one session run at once', async () => {
    const session = claudeSession();
    const readme = join(session.dir, 'README.md');
    const response = readResponse(readme, 'export const limit = 10;\n');
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        session.post('Read', { file_path: readme }, response, `toolu_par${i}`),
      ),
    );
    const missing = Array.from({ length: 3 }, (_, i) => join(session.dir, `src/missing-${i}.ts`));
    await Promise.all(
      missing.map((path) => session.failure('Read', { file_path: path }, 'File does not exist.')),
    );

    expect(denied(await session.pre('Read', { file_path: readme }))).toContain('6 times');
    for (const path of missing) expect(denied(await session.pre('Read', { file_path: path }))).toBeDefined();
  });

  it('loses no update without the helper either, each process handling its event itself', async () => {
    const session = claudeSession();
    const readme = join(session.dir, 'README.md');
    const response = readResponse(readme, 'export const limit = 10;\n');
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        session.send(
          {
            ...session.base(),
            hook_event_name: 'PostToolUse',
            tool_name: 'Read',
            tool_input: { file_path: readme },
            tool_use_id: `toolu_solo${i}`,
            tool_response: response,
          },
          ['--no-daemon'],
        ),
      ),
    );
    const run = await session.send(
      {
        ...session.base(),
        hook_event_name: 'PreToolUse',
        tool_name: 'Read',
        tool_input: { file_path: readme },
      },
      ['--no-daemon'],
    );
    expect(denied(run)).toContain('5 times');
  });

  it('fails open when the guard breaks, and says why on stderr', async () => {
    const session = claudeSession();
    // A policy that cannot be read: the guard cannot open (a state folder that cannot be made only
    // leaves it in memory, see burst.test.ts).
    const policy = join(session.dir, 'policy.yaml');
    writeFileSync(policy, 'preset: [unclosed\n');
    const run = await session.send(
      {
        ...session.base(),
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'npm test' },
        tool_use_id: 'toolu_broken',
      },
      ['--policy', policy],
    );
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toMatch(/narrowing-guard: .*the call proceeds unchecked/);
  });

  it('refuses the call a broken guard could not check when run with --fail-closed', async () => {
    const session = claudeSession();
    const policy = join(session.dir, 'policy.yaml');
    writeFileSync(policy, 'preset: [unclosed\n');
    const run = await session.send(
      {
        ...session.base(),
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: 'toolu_x',
      },
      ['--fail-closed', '--policy', policy],
    );
    expect(run.code).toBe(0);
    expect(denied(run)).toContain('could not check this call');
  });

  it('fails open on a payload that is not JSON', async () => {
    const run = await runHookProcess(hook.path, ['claude-code'], '{"session_id": ');
    expect(run).toMatchObject({ code: 0, stdout: '' });
    expect(run.stderr).toContain('the call proceeds unchecked');
  });
});
