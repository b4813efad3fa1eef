import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHook, runHookProcess, tempProject } from './support.js';

let hook: Awaited<ReturnType<typeof buildHook>>;
let project: ReturnType<typeof tempProject>;
/** The hook processes' temporary folder, where the code caches are kept. */
let temporary: string;
/** Loaded into every hook process (CommonJS): writes the Node modules it loaded to a file named by its pid. */
let reporter: string;

beforeAll(async () => {
  hook = await buildHook();
  project = tempProject();
  temporary = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-no-helper-cache-')));
  reporter = join(temporary, 'report-modules.cjs');
  writeFileSync(
    reporter,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_DIR + '/' + process.pid + '.json', JSON.stringify(process.moduleLoadList)));\n",
  );
});
afterAll(async () => {
  await project.remove();
  hook.remove();
  rmSync(temporary, { recursive: true, force: true });
});

const SESSION = '0b6f3c2e-8d41-4a7f-9e25-3c1d7a9b4f60';

/** One Claude Code event handled in the hook process itself (`--no-daemon`); the modules it loaded. */
async function send(payload: object): Promise<{ stdout: string; stderr: string; modules: string[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temporary, MODULES_DIR: temporary };
  delete env.NODE_EXTRA_CA_CERTS;
  const run = await runHookProcess(
    hook.path,
    ['claude-code', '--no-daemon'],
    { session_id: SESSION, transcript_path: join(project.dir, 'transcript.jsonl'), cwd: project.dir, ...payload },
    { env, nodeArgs: ['--require', reporter], killAfterMs: 30_000 },
  );
  const list = join(temporary, `${run.pid}.json`);
  const modules = existsSync(list) ? (JSON.parse(readFileSync(list, 'utf8')) as string[]) : [];
  return { stdout: run.stdout, stderr: run.stderr, modules };
}

/** The modules a CommonJS script that does nothing loads on this Node, reported as the hook's are. */
function bareCommonJsModules(): string[] {
  const script = join(temporary, 'bare.cjs');
  writeFileSync(script, 'process.stdout.write(String(process.pid));\n');
  const env: NodeJS.ProcessEnv = { ...process.env, MODULES_DIR: temporary };
  delete env.NODE_EXTRA_CA_CERTS;
  const pid = execFileSync(process.execPath, ['--require', reporter, script], { env }).toString();
  return JSON.parse(readFileSync(join(temporary, `${pid}.json`), 'utf8')) as string[];
}

describe('a hook process without the helper', () => {
  it('runs the guard from the code compiled by the process before it, starting no ES module loader', async () => {
    const missing = join(project.dir, 'src/missing.ts');
    const read = { tool_name: 'Read', tool_input: { file_path: missing } };
    await send({ ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_cache1' });
    await send({
      ...read,
      hook_event_name: 'PostToolUseFailure',
      tool_use_id: 'toolu_cache1',
      error: 'File does not exist.',
    });
    const cacheDir = join(temporary, `narrowing-guard-${process.getuid?.()}`, 'code-cache');
    expect(readdirSync(cacheDir).filter((name) => name.startsWith('hook-handle-'))).toHaveLength(1);

    const denied = await send({ ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_cache2' });
    expect(denied.stderr).not.toContain('unchecked');
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.modules.length).toBeGreaterThan(0);
    const bare = bareCommonJsModules();
    expect(denied.modules.filter((name) => name.includes('/esm/') && !bare.includes(name))).toEqual([]);
  });
});
