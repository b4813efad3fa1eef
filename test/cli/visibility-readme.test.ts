/**
 * The README's "Seeing it" section, run as a user would: the hook with --otel and the example SDK
 * prints verdict spans, a block marked wrong lets the next identical call through, and the report
 * of the session is written and counts the dispute.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'bin', 'narrowing.js');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const project = mkdtempSync(join(tmpdir(), 'narrowing-readme-visibility-'));
writeFileSync(join(project, 'package.json'), '{ "name": "shop", "scripts": { "test": "vitest run" } }\n');
afterAll(() => rmSync(project, { recursive: true, force: true }));

const MISSING_LINT =
  'npm error Missing script: "lint"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run';
const SPANS_ENV = `--import ${join(root, 'examples', 'otel', 'stderr.mjs')}`;

function cli(args: string[], input?: string, env: Record<string, string> = {}) {
  const run = spawnSync(process.execPath, [bin, ...args], {
    cwd: project,
    input,
    encoding: 'utf8',
    env: { ...process.env, ...env, CLAUDE_PROJECT_DIR: project },
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const payload = (fields: object) =>
  JSON.stringify({
    session_id: 's1',
    cwd: project,
    tool_name: 'Bash',
    tool_input: { command: 'npm run lint' },
    ...fields,
  });
const pre = (id: string, env?: Record<string, string>, extra: string[] = []) =>
  cli(
    ['hook', 'claude-code', '--no-daemon', ...extra],
    payload({ hook_event_name: 'PreToolUse', tool_use_id: id }),
    env,
  );
const denied = (run: { stdout: string }) => run.stdout.includes('"permissionDecision":"deny"');

describe.skipIf(!existsSync(join(root, 'dist', 'hooks', 'hook.js')))('README: seeing it', () => {
  it('shows the commands this test runs', () => {
    expect(readme).toContain(
      'NODE_OPTIONS="--import ./examples/otel/stderr.mjs" npx narrowing-guard hook claude-code --otel',
    );
    expect(readme).toContain('npx narrowing-guard report              # Wrote narrowing-report.html');
    expect(readme).toContain('npx narrowing-guard feedback last --wrong "I added the lint script"');
    // Its output is checked by test/telemetry/cli-otel.test.ts, with the probe server's read_note.
    expect(readme).toContain(
      'NODE_OPTIONS="--import ./examples/otel/stderr.mjs" npx narrowing-guard mcp --otel -- node server.js',
    );
  });

  it('prints a verdict span from the hook run with --otel', () => {
    const run = cli(
      ['hook', 'claude-code', '--otel'],
      payload({ hook_event_name: 'PreToolUse', tool_use_id: 't1' }),
      {
        NODE_OPTIONS: SPANS_ENV,
      },
    );
    expect(run.code).toBe(0);
    const span = JSON.parse(
      run.stderr
        .trim()
        .split('\n')
        .find((line) => line.startsWith('{')) ?? '{}',
    );
    expect(span.name).toBe('apply_guardrail narrowing');
    expect(span.attributes).toMatchObject({
      'gen_ai.operation.name': 'apply_guardrail',
      'gen_ai.tool.name': 'Bash',
      'narrowing.verdict': 'allow',
    });
    expect(span.events[0].name).toBe('gen_ai.guardrail.result');
  });

  it('lets the next identical call through once a block is marked wrong, and the report counts it', () => {
    cli(
      ['hook', 'claude-code', '--no-daemon'],
      payload({ hook_event_name: 'PostToolUseFailure', tool_use_id: 't1', error: MISSING_LINT }),
    );
    expect(denied(pre('t2'))).toBe(true);
    const feedback = cli(['feedback', 'last', '--wrong', 'I added the lint script']);
    expect(feedback.code).toBe(0);
    expect(feedback.stdout).toMatch(
      /^Recorded: entry journal\.jsonl:\d+ \(Bash, blocked by identical-failure\) was wrong\./,
    );
    expect(feedback.stdout).toContain('The next identical call is allowed.');
    expect(denied(pre('t3'))).toBe(false);
    const report = cli(['report']);
    expect(report.code).toBe(0);
    expect(report.stdout).toMatch(
      /^Wrote narrowing-report\.html \(\d+ KB, opens offline\): 3 calls, 1 failed, 1 blocked, 1 disputed/,
    );
    const json = JSON.parse(cli(['report', '--json']).stdout);
    expect(json.rules[0]).toMatchObject({ rule: 'identical-failure', blocks: 1, disputed: 1 });
  });
});
