import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  claudeCode,
  claudeCodeMcpResponse,
  claudeCodeMcpSuccess,
  claudeCodePowerShell,
  codex,
  cursorGenericMcp,
  cursorShellHooks,
  gemini,
  HOSTS,
  type HostFixture,
} from './hosts.js';
import { HostRun, tempProject, type Verdict } from './scenario.js';

/** npm 10's own words for `npm run tset` in a project whose scripts have `test` and no `tset`. */
const MISSING_SCRIPT = {
  output: [
    'npm error Missing script: "tset"',
    'npm error',
    'npm error Did you mean this?',
    'npm error   npm run test # run the "test" package script',
    'npm error',
    'npm error To see a list of scripts, run:',
    'npm error   npm run',
    'npm error A complete log of this run can be found in: /home/dev/.npm/_logs/2026-11-28T21_04_17_311Z-debug-0.log',
  ].join('\n'),
  exitCode: 1,
};
/** A script that fails without saying why. */
const SILENT_FAILURE = { output: '', exitCode: 1 };
/** curl to a server that is down. */
const CONNECTION_REFUSED = {
  output: "curl: (7) Failed to connect to localhost port 8787 after 0 ms: Couldn't connect to server",
  exitCode: 7,
};
/** @modelcontextprotocol/server-filesystem 2026.8.31 reading a file that is not there, as it answers. */
const FILE_NOT_FOUND = (path: string) => ({
  content: [{ type: 'text' as const, text: `ENOENT: no such file or directory, open '${path}'` }],
  isError: true,
});
const TESTS_PASS = { output: '\n> demo@1.0.0 test\n> node --test\n\n# pass 3\n# fail 0', exitCode: 0 };

const projects: { remove: () => void }[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

function start(host: HostFixture, session = `session-${host.agent}`): HostRun {
  const project = tempProject();
  projects.push(project);
  return new HostRun(host, { id: session, cwd: project.dir });
}

const verdicts = (attempts: readonly { verdict: Verdict }[]) => attempts.map((attempt) => attempt.verdict);

/** Each host's verdicts for one scenario, checked to agree with the first host's. */
async function onEveryHost(
  scenario: (run: HostRun) => Promise<readonly Verdict[]>,
  hosts: readonly HostFixture[] = HOSTS,
): Promise<readonly Verdict[]> {
  const results = new Map<string, readonly Verdict[]>();
  for (const host of hosts) results.set(host.agent, await scenario(start(host)));
  const [first] = [...results.values()];
  for (const [agent, result] of results) expect({ agent, result }).toEqual({ agent, result: first });
  return first as readonly Verdict[];
}

describe('hook conformance: every agent, its real payloads, the same verdicts', () => {
  it('cites the source of every payload shape, marking what only the docs say', () => {
    const variants = [
      claudeCodePowerShell,
      cursorShellHooks,
      claudeCodeMcpResponse('json-text'),
      cursorGenericMcp('failure-event'),
      gemini({ wrapped: false }),
      codex({ shellTool: 'shell_command' }),
    ];
    for (const host of [...HOSTS, ...variants]) {
      expect(host.sources.length).toBeGreaterThan(0);
      for (const source of host.sources)
        expect(source).toMatch(
          /@ [0-9a-f]{40}|docs-only|\.(?:rs|ts|d\.ts)\b|transcripts|recorded from a run of/,
        );
    }
  });

  it('denies five identical `npm run tset` failing with "Missing script" by the 2nd–3rd attempt', async () => {
    const result = await onEveryHost(async (run) =>
      verdicts(await run.repeat(5, 'npm run tset', MISSING_SCRIPT)),
    );
    const firstDenied = result.indexOf('deny') + 1;
    expect(firstDenied).toBeGreaterThanOrEqual(2);
    expect(firstDenied).toBeLessThanOrEqual(3);
    expect(result.slice(firstDenied - 1).every((verdict) => verdict === 'deny')).toBe(true);
  });

  it("says in the deny reason what npm said, once, without npm's prefix repeated", async () => {
    for (const host of HOSTS) {
      const run = start(host);
      const attempts = await run.repeat(3, 'npm run tset', MISSING_SCRIPT);
      const reason = attempts.find((attempt) => attempt.verdict === 'deny')?.reason ?? '';
      expect(reason, host.agent).toContain('Missing script: "tset"');
      expect(reason, host.agent).not.toMatch(/npm error npm error/);
      expect(reason, host.agent).not.toMatch(/[{[]"/);
      expect(reason, host.agent).not.toMatch(/untrusted_context|Output: |Process Group PGID/);
    }
  });

  it('denies a command that keeps failing with nothing but its exit status by the 3rd attempt', async () => {
    const result = await onEveryHost(async (run) =>
      verdicts(await run.repeat(4, './scripts/check.sh', SILENT_FAILURE)),
    );
    expect(result.slice(0, 2)).toEqual(['allow', 'allow']);
    expect(result.slice(2)).toContain('deny');
  });

  it('reads an exit status from the rollout of older Codex versions that keep extended history', async () => {
    const run = start(codex({ rollout: 'extended-history' }));
    const result = verdicts(await run.repeat(4, './scripts/check.sh', SILENT_FAILURE));
    expect(result.slice(0, 2)).toEqual(['allow', 'allow']);
    expect(result.slice(2)).toContain('deny');
  });

  it("reads the failures of Codex's shell_command, which it reports to no hook, from its rollout", async () => {
    const run = start(codex({ shellTool: 'shell_command' }));
    const attempts = await run.repeat(4, 'npm run tset', MISSING_SCRIPT);
    expect(verdicts(attempts).slice(0, 3)).toContain('deny');
    expect(attempts.find((attempt) => attempt.verdict === 'deny')?.reason).toContain(
      'Missing script: "tset"',
    );
  });

  it('never denies a command for a network fault: curl to a server that is down', async () => {
    const result = await onEveryHost(async (run) =>
      verdicts(await run.repeat(5, 'curl -sS http://localhost:8787/health', CONNECTION_REFUSED)),
    );
    expect(result).not.toContain('deny');
  });

  it('allows the fix: the right script after the misspelt one was denied', async () => {
    const result = await onEveryHost(async (run) => {
      const denied = await run.repeat(3, 'npm run tset', MISSING_SCRIPT);
      const fixed = await run.shell('npm run test', TESTS_PASS);
      return [...verdicts(denied), fixed.verdict];
    });
    expect(result.at(-1)).toBe('allow');
    expect(result).toContain('deny');
  });

  it('sees a retry with a rewritten description as the same command', async () => {
    const descriptions = [
      'Run the test script',
      'Run tests again',
      'Retry running the npm test script',
      'Run the tests once more to check',
      'Execute test suite',
    ];
    const result = await onEveryHost(async (run) =>
      verdicts(await run.repeat(5, 'npm run tset', MISSING_SCRIPT, descriptions)),
    );
    expect(result.indexOf('deny') + 1).toBeLessThanOrEqual(3);
  });

  it("sees a retry with a rewritten description as the same command on Claude Code's PowerShell tool", async () => {
    const descriptions = ['Run the test script', 'Run tests again', 'Retry the npm test script'];
    const result = await onEveryHost(
      async (run) => verdicts(await run.repeat(3, 'npm run tset', MISSING_SCRIPT, descriptions)),
      [claudeCode, claudeCodePowerShell],
    );
    expect(result).toContain('deny');
  });

  it('keeps a learned ban across a new prompt', async () => {
    const result = await onEveryHost(async (run) => {
      const before = await run.repeat(3, 'npm run tset', MISSING_SCRIPT);
      await run.prompt('Please run the tests again');
      const after = await run.shell('npm run tset', MISSING_SCRIPT);
      return [...verdicts(before), after.verdict];
    });
    expect(result.at(-1)).toBe('deny');
  });

  it('keeps what one project learned out of a second project', async () => {
    const result = await onEveryHost(async (run) => {
      const first = await run.repeat(3, 'npm run tset', MISSING_SCRIPT);
      const other = tempProject();
      projects.push(other);
      const second = new HostRun(run.host, { id: run.session.id, cwd: other.dir });
      const there = await second.shell('npm run tset', MISSING_SCRIPT);
      return [...verdicts(first), there.verdict];
    });
    expect(result).toContain('deny');
    expect(result.at(-1)).toBe('allow');
  });

  it('denies an MCP tool that keeps failing with the same error by the 2nd–3rd attempt', async () => {
    const result = await onEveryHost(async (run) => {
      const path = `${run.session.cwd}/notes/todo.md`;
      const attempts: Verdict[] = [];
      for (let index = 0; index < 5; index++) {
        attempts.push(
          (await run.mcp('filesystem', 'read_text_file', { path }, FILE_NOT_FOUND(path))).verdict,
        );
      }
      return attempts;
    });
    const firstDenied = result.indexOf('deny') + 1;
    expect(firstDenied).toBeGreaterThanOrEqual(2);
    expect(firstDenied).toBeLessThanOrEqual(3);
    expect(result.slice(firstDenied - 1).every((verdict) => verdict === 'deny')).toBe(true);
  });

  it("quotes an MCP tool's error once, in its own words, without the JSON it came in", async () => {
    const hosts = [...HOSTS, claudeCodeMcpResponse('json-text'), claudeCodeMcpResponse('blocks')];
    for (const host of hosts) {
      const run = start(host);
      const path = `${run.session.cwd}/notes/todo.md`;
      let reason = '';
      for (let index = 0; index < 3 && reason === ''; index++) {
        const attempt = await run.mcp('filesystem', 'read_text_file', { path }, FILE_NOT_FOUND(path));
        if (attempt.verdict === 'deny') reason = attempt.reason ?? '';
      }
      const error = `ENOENT: no such file or directory, open '${path}'`;
      expect(reason, host.agent).toContain(error);
      expect(reason.split(error).length - 1, host.agent).toBe(1);
      expect(reason, host.agent).not.toMatch(/[{[]"|\\n|\\"|isError|is_error|functionResponse/);
    }
  });

  it("reads Claude Code's MCP result passed through PostToolUse, as JSON text or flagged blocks", async () => {
    for (const shape of ['json-text', 'blocks'] as const) {
      const run = start(claudeCodeMcpResponse(shape));
      const path = `${run.session.cwd}/notes/todo.md`;
      const result: Verdict[] = [];
      for (let index = 0; index < 4; index++) {
        result.push((await run.mcp('filesystem', 'read_text_file', { path }, FILE_NOT_FOUND(path))).verdict);
      }
      expect(result.indexOf('deny') + 1, shape).toBeGreaterThanOrEqual(2);
      expect(result.indexOf('deny') + 1, shape).toBeLessThanOrEqual(3);
    }
  });

  it("denies a failing MCP tool on Cursor's generic tool events, reported by postToolUse or postToolUseFailure", async () => {
    for (const report of ['post-tool-use', 'failure-event'] as const) {
      const run = start(cursorGenericMcp(report));
      const path = `${run.session.cwd}/notes/todo.md`;
      const attempts: { verdict: Verdict; reason?: string }[] = [];
      for (let index = 0; index < 5; index++) {
        attempts.push(await run.mcp('filesystem', 'read_text_file', { path }, FILE_NOT_FOUND(path)));
      }
      const result = verdicts(attempts);
      const firstDenied = result.indexOf('deny') + 1;
      expect(firstDenied, report).toBeGreaterThanOrEqual(2);
      expect(firstDenied, report).toBeLessThanOrEqual(3);
      expect(
        result.slice(firstDenied - 1).every((verdict) => verdict === 'deny'),
        report,
      ).toBe(true);
      const reason = attempts[firstDenied - 1]?.reason ?? '';
      expect(reason, report).toContain(`ENOENT: no such file or directory, open '${path}'`);
      expect(reason, report).not.toMatch(/[{[]"|isError/);
    }
  });

  it("reads Claude Code's MCP answers in each shape its SDK types give as answers, never as failures", async () => {
    const results: Verdict[][] = [];
    for (const shape of ['text', 'blocks', 'structured'] as const) {
      const run = start(claudeCodeMcpSuccess(shape));
      const path = `${run.session.cwd}/notes/todo.md`;
      const answer = { content: [{ type: 'text' as const, text: '- ship the release notes\n- tag v1.4.0' }] };
      const result: Verdict[] = [];
      for (let index = 0; index < 3; index++) {
        result.push((await run.mcp('filesystem', 'read_text_file', { path }, answer)).verdict);
      }
      // Read twice and answered: at most a warning that the third read repeats them, never a ban.
      expect(result, shape).not.toContain('deny');
      results.push(result);
    }
    expect(new Set(results.map((result) => result.join())).size).toBe(1);
  });

  it("reads Codex's failure from the output text when its rollout keeps no exit status", async () => {
    const run = start(codex({ rollout: 'none' }));
    const result = verdicts(await run.repeat(5, 'npm run tset', MISSING_SCRIPT));
    expect(result.indexOf('deny') + 1).toBeLessThanOrEqual(3);
  });

  it("reads Cursor's older afterShellExecution output as a failure", async () => {
    const run = start(cursorShellHooks);
    const result = verdicts(await run.repeat(5, 'npm run tset', MISSING_SCRIPT));
    expect(result.indexOf('deny') + 1).toBeGreaterThanOrEqual(2);
    expect(result.indexOf('deny') + 1).toBeLessThanOrEqual(3);
  });

  it("reads Gemini CLI's command results the same with and without its untrusted marks", async () => {
    const results: Verdict[][] = [];
    for (const wrapped of [true, false]) {
      const run = start(gemini({ wrapped }));
      const silent = verdicts(await run.repeat(4, './scripts/check.sh', SILENT_FAILURE));
      const fixed = await run.shell('npm run test', TESTS_PASS);
      results.push([...silent, fixed.verdict]);
    }
    expect(results[0]).toEqual(results[1]);
    expect(results[0]?.slice(2, 4)).toContain('deny');
    expect(results[0]?.at(-1)).toBe('allow');
  });

  it('keeps a ban when Claude Code holds the edit that would lift it for review instead of writing it', async () => {
    const run = start(claudeCode);
    const manifest = join(run.session.cwd, 'package.json');
    writeFileSync(manifest, '{"name":"demo","scripts":{"test":"node --test"}}\n');
    const denied = verdicts(await run.repeat(3, 'npm run tset', MISSING_SCRIPT));
    expect(denied).toContain('deny');
    const base = {
      session_id: run.session.id,
      transcript_path: join(run.session.cwd, '.claude-transcript.jsonl'),
      cwd: run.session.cwd,
      permission_mode: 'default',
    };
    const edit = {
      tool_name: 'Edit',
      tool_input: {
        file_path: manifest,
        old_string: '"test": "node --test"',
        new_string: '"tset": "node --test"',
      },
      tool_use_id: 'toolu_01StagedEdit',
    };
    await run.send({ ...base, hook_event_name: 'PreToolUse', ...edit });
    await run.send({
      ...base,
      hook_event_name: 'PostToolUse',
      ...edit,
      // Claude Code's FileEditOutput for an edit held for the owner's review: the file is unchanged.
      tool_response: {
        filePath: manifest,
        oldString: edit.tool_input.old_string,
        newString: edit.tool_input.new_string,
        originalFile: null,
        structuredPatch: [],
        userModified: false,
        replaceAll: false,
        staged: true,
      },
    });
    expect((await run.shell('npm run tset', MISSING_SCRIPT)).verdict).toBe('deny');
  });

  /**
   * The model proposes `patch` four times through Codex's `tool` (its freeform `custom_tool_call`, or
   * the `function_call` of models that take tools as JSON); Codex refuses it each time as `refusal`
   * says. Returns the attempt first denied (0: none).
   */
  async function refusedPatch(
    tool: 'custom' | 'function',
    patch: string,
    refusal: (cwd: string) => string,
  ): Promise<number> {
    const run = start(codex());
    await run.prompt('Rename the helper');
    const rollout = join(run.session.cwd, '.codex-rollout.jsonl');
    const line = (payload: unknown) =>
      appendFileSync(
        rollout,
        `${JSON.stringify({ timestamp: '2026-11-30T22:53:19.438Z', type: 'response_item', payload })}\n`,
      );
    const verdicts: string[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const id = `call_patch_${attempt}`;
      // codex-cli 0.171.0: PreToolUse, then the refusal in the rollout, and no PostToolUse.
      const before = await run.send({
        session_id: run.session.id,
        turn_id: 'turn-1',
        transcript_path: rollout,
        cwd: run.session.cwd,
        hook_event_name: 'PreToolUse',
        model: 'gpt-5.1-codex',
        permission_mode: 'default',
        tool_name: 'apply_patch',
        tool_input: { command: patch },
        tool_use_id: id,
      });
      verdicts.push(before.verdict);
      if (before.verdict === 'deny') continue;
      if (tool === 'custom') {
        line({ type: 'custom_tool_call', call_id: id, name: 'apply_patch', input: patch });
        line({ type: 'custom_tool_call_output', call_id: id, output: refusal(run.session.cwd) });
      } else {
        line({
          type: 'function_call',
          call_id: id,
          name: 'apply_patch',
          arguments: JSON.stringify({ input: patch }),
        });
        line({ type: 'function_call_output', call_id: id, output: refusal(run.session.cwd) });
      }
    }
    return verdicts.indexOf('deny') + 1;
  }

  it('denies a patch Codex keeps refusing, though Codex reports the refusal to no hook', async () => {
    const patch =
      '*** Begin Patch\n*** Update File: src/helpers.ts\n@@\n-export function total(\n+export function computeTotal(\n*** End Patch';
    const firstDenied = await refusedPatch(
      'custom',
      patch,
      (cwd) =>
        `apply_patch verification failed: Failed to find expected lines in ${cwd}/src/helpers.ts:\nexport function total(`,
    );
    expect(firstDenied).toBeGreaterThanOrEqual(2);
    expect(firstDenied).toBeLessThanOrEqual(3);
  });

  it('denies a patch Codex keeps refusing as unreadable input, called as a JSON tool', async () => {
    // codex-rs apply_patch.rs: a patch whose shell quoting Codex cannot read.
    const patch = "*** Begin Patch\n*** Add File: notes.txt\n+it's done\n*** End Patch";
    const firstDenied = await refusedPatch(
      'function',
      patch,
      () => 'apply_patch handler received invalid patch input',
    );
    expect(firstDenied).toBeGreaterThanOrEqual(2);
    expect(firstDenied).toBeLessThanOrEqual(3);
  });
});
