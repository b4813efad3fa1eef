import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runFeedback } from '../../../src/cli/commands/feedback.js';
import { runReport } from '../../../src/cli/commands/report.js';
import { openGuardSync } from '../../../src/guard/open.js';
import { captureIO } from './cli-io.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HOSTILE =
  'npm error Missing script: "lint"<script>alert(document.cookie)</script></script><img src=x onerror=alert(1)>\n';
const lint = { tool: 'Bash', args: { command: 'npm run lint' } };

/** A session where `npm run lint` failed (its output carrying markup) and its retry was blocked. */
async function session(): Promise<string> {
  const project = mkdtempSync(join(tmpdir(), 'narrowing-report-'));
  dirs.push(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "shop", "scripts": { "test": "vitest run" } }\n');
  let now = Date.parse('2026-11-28T10:00:00Z');
  const guard = openGuardSync({
    workspaceRoot: project,
    stateDir: join(project, '.narrowing'),
    sessionId: 'session-1',
    clock: { now: () => now },
    onProblem: () => undefined,
  });
  guard.newRun('user');
  guard.check(lint);
  now += 20_000;
  guard.record({ proposal: lint, success: false, content: HOSTILE, exitCode: 1 });
  now += 10_000;
  guard.check(lint);
  now += 30_000;
  guard.newRun('compact');
  await guard.close();
  return project;
}

describe('narrowing-guard report', () => {
  it('gives the figures of the latest session as JSON', async () => {
    const project = await session();
    const { io, stdout } = captureIO();
    expect(await runReport({ json: true }, io, project)).toBe(0);
    const data = JSON.parse(stdout());
    expect(data.sessions).toEqual(['session-1']);
    expect(data.totals).toMatchObject({
      calls: 2,
      failures: 1,
      blocks: 1,
      compactions: 1,
      prompts: 1,
      learned: 1,
    });
    expect(data.rules).toEqual([
      expect.objectContaining({ rule: 'identical-failure', blocks: 1, disputed: 0 }),
    ]);
    expect(data.saved).toMatchObject({
      callsBlocked: 1,
      repeatsPrevented: 1,
      secondsPerCall: 30,
      seconds: 30,
    });
    expect(data.saved.tokens).toBeGreaterThan(10);
    expect(data.saved.method).toContain('median gap');
  });

  it('counts a disputed block under its rule', async () => {
    const project = await session();
    await runFeedback('last', { wrong: 'the script exists' }, captureIO().io, project);
    const { io, stdout } = captureIO();
    await runReport({ json: true }, io, project);
    const data = JSON.parse(stdout());
    expect(data.totals.disputes).toBe(1);
    expect(data.rules[0]).toMatchObject({ rule: 'identical-failure', blocks: 1, disputed: 1 });
    expect(data.disputes[0]).toMatchObject({ tool: 'Bash', why: 'the script exists' });
  });

  it('writes one HTML file that needs no network and keeps a script in a tool output inert', async () => {
    const project = await session();
    const { io, stdout } = captureIO();
    expect(await runReport({ out: 'review.html' }, io, project)).toBe(0);
    expect(stdout()).toMatch(
      /^Wrote review\.html \(\d+ KB, opens offline\): 2 calls, 1 failed, 1 blocked, 0 disputed/,
    );
    const html = readFileSync(join(project, 'review.html'), 'utf8');
    expect(html).toContain('&#60;script&#62;alert(document.cookie)&#60;/script&#62;');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    // Only the page's own three script elements: the figures, uPlot, and the chart.
    expect(html.match(/<script/g)).toHaveLength(3);
    expect(html).toMatch(
      /Content-Security-Policy" content="default-src &#39;none&#39;; script-src &#39;sha256-/,
    );
    expect(html).not.toMatch(/<(?:link|iframe|img)\b|\bsrc=["']?https?:/i);
    expect(html).toContain('uPlot');
    expect(Buffer.byteLength(html)).toBeLessThan(200_000);
  });

  it('takes a time range across sessions, and says when nothing is in it', async () => {
    const project = await session();
    const inside = captureIO();
    expect(await runReport({ since: '2026-11-28T09:00:00Z', json: true }, inside.io, project)).toBe(0);
    expect(JSON.parse(inside.stdout()).totals.calls).toBe(2);
    const outside = captureIO();
    expect(await runReport({ since: '2026-11-29T00:00:00Z', json: true }, outside.io, project)).toBe(1);
    expect(outside.stderr()).toContain('no journal entries in that time range');
  });
});
