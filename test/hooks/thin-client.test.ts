import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHook, runHookProcess, tempProject } from './support.js';

let hook: Awaited<ReturnType<typeof buildHook>>;
let project: ReturnType<typeof tempProject>;
/** The hook processes' temporary folder, where the client's code cache is kept. */
let temporary: string;
/**
 * Loaded into every hook process (CommonJS, with `--require`, so that it starts no ES module loader
 * itself): writes the Node modules it loaded, which of Node's stream objects for stdin, stdout and
 * stderr it made, whether it set up one of Node's timers, and whether the schema library was set up (it registers itself on `globalThis`), to a
 * file named by its pid.
 */
let reporter: string;

beforeAll(async () => {
  hook = await buildHook();
  project = tempProject();
  temporary = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-thin-client-')));
  reporter = join(temporary, 'report-modules.cjs');
  writeFileSync(
    reporter,
    'const made = [];\n' +
      'const setTimer = globalThis.setTimeout;\n' +
      "globalThis.setTimeout = function (...args) { made.push('timer'); return setTimer.apply(this, args); };\n" +
      "for (const name of ['stdin', 'stdout', 'stderr']) {\n" +
      '  const own = Object.getOwnPropertyDescriptor(process, name);\n' +
      "  Object.defineProperty(process, name, { configurable: true, get() { made.push('stream ' + name); return own.get.call(this); } });\n" +
      '}\n' +
      "process.on('exit', () => { if (globalThis.__zod_globalRegistry !== undefined) made.push('schema library'); require('node:fs').writeFileSync(process.env.MODULES_DIR + '/' + process.pid + '.json', JSON.stringify([...process.moduleLoadList, ...made])); });\n",
  );
});
afterAll(async () => {
  await project.remove();
  hook.remove();
  rmSync(temporary, { recursive: true, force: true });
});

const SESSION = '5d0c8f1e-2a47-4b9e-8c3d-7f1a6e2b9c40';

/** One Claude Code event through the bundled hook, as the agent runs it; the modules its process loaded. */
async function send(
  payload: object,
  args: readonly string[] = ['claude-code'],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; stderr: string; modules: string[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temporary, MODULES_DIR: temporary, ...extraEnv };
  // With extra certificates to read, Node loads node:crypto itself before any hook code runs.
  delete env.NODE_EXTRA_CA_CERTS;
  const run = await runHookProcess(
    hook.path,
    args,
    {
      session_id: SESSION,
      transcript_path: join(project.dir, 'transcript.jsonl'),
      cwd: project.dir,
      ...payload,
    },
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

async function waitForHelper(): Promise<void> {
  const stateDir = join(project.dir, '.narrowing');
  for (let i = 0; i < 600 && !readdirSync(stateDir).some((name) => name.endsWith('.sock')); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

// Runs before the tests below remove the guard's script from the bundle.
describe('a hook process without the helper', () => {
  it('runs the guard from the code compiled by the process before it, starting no ES module loader', async () => {
    const missing = join(project.dir, 'src/missing-alone.ts');
    const read = { tool_name: 'Read', tool_input: { file_path: missing } };
    const alone = ['claude-code', '--no-daemon'];
    await send({ ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_alone1' }, alone);
    await send(
      {
        ...read,
        hook_event_name: 'PostToolUseFailure',
        tool_use_id: 'toolu_alone1',
        error: 'File does not exist.',
      },
      alone,
    );
    const cacheDir = join(temporary, `narrowing-guard-${process.getuid?.()}`, 'code-cache');
    expect(readdirSync(cacheDir).filter((name) => name.startsWith('hook-handle-'))).toHaveLength(1);

    const denied = await send({ ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_alone2' }, alone);
    expect(denied.stderr).not.toContain('unchecked');
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.modules.length).toBeGreaterThan(0);
    const bare = bareCommonJsModules();
    expect(denied.modules.filter((name) => name.includes('/esm/') && !bare.includes(name))).toEqual([]);
  });

  it('sets up the schema library only for an event that reads a learned constraint, and makes no stderr stream when it prints nothing there', async () => {
    const alone = ['claude-code', '--no-daemon'];
    const other = { tool_name: 'Read', tool_input: { file_path: join(project.dir, 'src/other.ts') } };
    const allowed = await send(
      { ...other, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_lazy1' },
      alone,
    );
    expect(allowed.stdout.trim()).toBe('');
    expect(allowed.modules).not.toContain('schema library');
    // Nothing to say on stderr: the stream is never made (Node's `assert` would make it for its colours).
    expect(allowed.modules).not.toContain('stream stderr');

    const missing = {
      tool_name: 'Read',
      tool_input: { file_path: join(project.dir, 'src/missing-alone.ts') },
    };
    const denied = await send(
      { ...missing, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_lazy2' },
      alone,
    );
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.modules).toContain('schema library');
  });
});

// The helper does not run on Windows.
describe.skipIf(process.platform === 'win32')('the hook process with the helper running', () => {
  it('relays the event without the guard, node:crypto, node:child_process, node:net, ES modules or stdio streams, from its code cache', async () => {
    const missing = join(project.dir, 'src/missing.ts');
    const read = { tool_name: 'Read', tool_input: { file_path: missing } };
    // The first event finds no helper: it is handled in the process, which starts one.
    await send({ ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_thin1' });
    await waitForHelper();
    await send({
      ...read,
      hook_event_name: 'PostToolUseFailure',
      tool_use_id: 'toolu_thin1',
      error: 'File does not exist.',
    });
    // A hook process that needed the guard would fail without it, and let the call run unchecked.
    rmSync(join(hook.path, '..', 'hook-handle.cjs'));

    const denied = await send({ ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_thin2' });
    expect(denied.stderr).not.toContain('unchecked');
    expect(JSON.parse(denied.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(denied.modules.length).toBeGreaterThan(0);
    expect(
      denied.modules.filter((name) =>
        [
          'NativeModule crypto',
          'NativeModule child_process',
          'NativeModule net',
          'NativeModule stream',
        ].includes(name),
      ),
    ).toEqual([]);
    // Started as CommonJS, it starts no more of the ES module loader than a bare CommonJS script does
    // on this Node (from Node 22 on, every start loads it); its payload and answer go through the
    // descriptors.
    const bare = bareCommonJsModules();
    expect(denied.modules.filter((name) => name.includes('/esm/') && !bare.includes(name))).toEqual([]);
    expect(denied.modules.filter((name) => name.startsWith('stream '))).toEqual([]);

    const cacheDir = join(temporary, `narrowing-guard-${process.getuid?.()}`, 'code-cache');
    const caches = readdirSync(cacheDir).filter(
      (name) => name.startsWith('hook-client-') && name.endsWith('.v8cache'),
    );
    expect(caches).toHaveLength(1);
    const cache = statSync(join(cacheDir, caches[0] as string));
    expect(cache.mode & 0o777).toBe(0o600);

    // Where Node would warn about driving its pipe handle, the client asks through node:net, silently.
    const warned = await send(
      { ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_thin3' },
      ['claude-code'],
      { NODE_PENDING_DEPRECATION: '1' },
    );
    expect(warned.stderr).toBe('');
    expect(JSON.parse(warned.stdout).hookSpecificOutput.permissionDecision).toBe('deny');
    expect(warned.modules).toContain('NativeModule net');
  });

  it("waits for the helper's answer within its deadline without setting up one of Node's timers", async () => {
    const read = { tool_name: 'Read', tool_input: { file_path: join(project.dir, 'src/app.ts') } };
    await send({ ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_timer1' });
    await waitForHelper();
    await send({ ...read, hook_event_name: 'PostToolUse', tool_use_id: 'toolu_timer1', tool_response: {} });

    const checked = await send({ ...read, hook_event_name: 'PreToolUse', tool_use_id: 'toolu_timer2' });
    expect(checked.stderr).toBe('');
    expect(checked.modules.length).toBeGreaterThan(0);
    expect(checked.modules).not.toContain('timer');
  });
});
