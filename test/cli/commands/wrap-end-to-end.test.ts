import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runExplain } from '../../../src/cli/commands/explain.js';
import { runInspect } from '../../../src/cli/commands/inspect.js';
import { runUnwrap } from '../../../src/cli/commands/unwrap.js';
import { runVerify } from '../../../src/cli/commands/verify.js';
import { runWrap } from '../../../src/cli/commands/wrap.js';
import { spawnProxy, textOf } from '../../mcp/support/harness.js';
import { FILESYSTEM_SERVER } from '../../mcp/support/paths.js';
import { captureIO } from './cli-io.js';

const project = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-e2e-project-')));
const stateDir = realpathSync(mkdtempSync(join(tmpdir(), 'narrowing-e2e-state-')));
afterAll(() => {
  rmSync(project, { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
});

const config = `${JSON.stringify(
  { mcpServers: { files: { command: process.execPath, args: [FILESYSTEM_SERVER, project] } } },
  null,
  2,
)}\n`;

describe('a wrapped server', () => {
  it('runs through narrowing, leaves a journal the reports read, and unwraps to the original', async () => {
    writeFileSync(join(project, '.mcp.json'), config);
    expect(await runWrap('files', { cwd: project, stateDir, launcher: 'npx' }, captureIO().io)).toBe(0);

    // Start what the client would start, from the word after `narrowing`.
    const entry = JSON.parse(readFileSync(join(project, '.mcp.json'), 'utf8')).mcpServers.files;
    const args = (entry.args as string[]).slice((entry.args as string[]).indexOf('mcp') + 1);
    expect(args).toEqual(['--state-dir', stateDir, '--', process.execPath, FILESYSTEM_SERVER, project]);
    const proxy = await spawnProxy(args);
    const missing = { name: 'read_text_file', arguments: { path: join(project, 'src/config.ts') } };
    const first = await proxy.client.callTool(missing);
    const second = await proxy.client.callTool(missing);
    await proxy.close();
    expect(first.isError).toBe(true);
    expect(textOf(first)).toContain('ENOENT');
    expect(textOf(second)).toContain('identical-failure');

    const reports = { cwd: project, now: Date.now() };
    const verified = captureIO();
    expect(await runVerify({ stateDir }, verified.io, reports)).toBe(0);
    expect(verified.stdout()).toMatch(/^OK: \d+ receipts verified/);
    const inspected = captureIO();
    expect(await runInspect({ stateDir }, inspected.io, reports)).toBe(0);
    expect(inspected.stdout()).toContain('config.ts: it does not exist');
    const explained = captureIO();
    expect(await runExplain({ stateDir }, explained.io, reports)).toBe(0);
    expect(explained.stdout()).toContain('identical-failure — 1 block (read_text_file ×1)');

    expect(await runUnwrap('files', { cwd: project, stateDir }, captureIO().io)).toBe(0);
    expect(readFileSync(join(project, '.mcp.json'), 'utf8')).toBe(config);
  });
});
