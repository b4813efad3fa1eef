import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJournal } from '../../src/audit/index.js';
import { stepTable } from '../../src/replay/format.js';
import type { ReplayStep } from '../../src/replay/index.js';
import { chooseSession, DEFAULT_SAVINGS, formatExplanation, indexSessions } from '../../src/report/index.js';

const root = mkdtempSync(join(tmpdir(), 'narrowing-large-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CALLS = 150_000;

describe('reports of very long runs', () => {
  it('prints the replay table of 150,000 calls', () => {
    const steps: ReplayStep[] = [];
    for (let index = 0; index < CALLS; index++) {
      steps.push({ step: index + 1, tool: `tool_${index}`, verdict: 'allow' } as ReplayStep);
    }
    const table = stepTable(steps);
    expect(table).toHaveLength(CALLS + 1);
  });

  it('explains a session of 150,000 calls to as many tools', async () => {
    const path = join(root, 'journal.jsonl');
    const lines = [`{"at":1771405207000,"seq":1,"sessionId":"s-long","type":"session"}`];
    for (let index = 0; index < CALLS; index++) {
      lines.push(
        `{"at":${1771405208000 + index},"callKey":"k${index}","seq":${index + 2},"sessionId":"s-long","tool":"tool_${index}","type":"proposal","verdict":"allow"}`,
      );
    }
    writeFileSync(path, `${lines.join('\n')}\n`);
    const choice = chooseSession(await indexSessions(readJournal(path)), undefined);
    if (!choice.ok) throw new Error(choice.problem);
    const text = formatExplanation(choice.session.story(), {
      journalLabel: 'journal.jsonl',
      assumption: DEFAULT_SAVINGS,
      timeZone: 'UTC',
    });
    expect(text).toMatch(/150,?000 tool calls proposed/);
  });
});
