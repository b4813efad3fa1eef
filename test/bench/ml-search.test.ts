import { describe, expect, it } from 'vitest';
import { type MlMode, runMlSearch } from '../../bench/ml-search.js';
import { formatMlSearch, mlSearchCommand } from '../../bench/ml-search-command.js';
import type { ProposerName } from '../../bench/ml-search-proposers.js';
import { fitsInMemory, runTrial, validationBpb } from '../../bench/ml-search-world.js';
import { captureIO } from './support.js';

const report = runMlSearch();
const row = (proposer: ProposerName, mode: MlMode) => {
  const found = report.rows.find((entry) => entry.proposer === proposer && entry.mode === mode);
  if (!found) throw new Error(`no row for ${proposer} ${mode}`);
  return found;
};

describe('the simulated GPU', () => {
  it('runs out of memory at depth 8 with batch size 32 and the default aspect ratio, as in v6', () => {
    const at = (depth: number, batch_size = 32) => ({ depth, aspect_ratio: 64, matrix_lr: 0.04, batch_size });
    expect(fitsInMemory(at(7))).toBe(true);
    expect(fitsInMemory(at(8))).toBe(false);
    expect(runTrial(at(8), 1, 2)).toMatchObject({ kind: 'oom', seconds: 30 });
    expect(runTrial(at(8), 1, 2).log).toContain('torch.OutOfMemoryError: CUDA out of memory');
  });

  it('fits every depth up to 10 at batch size 16, where v5 saw no OOM', () => {
    for (let depth = 2; depth <= 10; depth++) {
      expect(fitsInMemory({ depth, aspect_ratio: 64, matrix_lr: 0.04, batch_size: 16 })).toBe(true);
    }
  });

  it('scores the same configuration the same way for the same seed, and differently for another', () => {
    const config = { depth: 6, aspect_ratio: 48, matrix_lr: 0.03, batch_size: 32 };
    expect(validationBpb(config, 3)).toBe(validationBpb(config, 3));
    expect(validationBpb(config, 3)).not.toBe(validationBpb(config, 4));
  });
});

describe('narrowing bench ml-search', () => {
  it('gives the same figures on every run', () => {
    expect(JSON.stringify(runMlSearch())).toBe(JSON.stringify(report));
  });

  it('reports every proposer in every mode over 5 seeds of 25 trials by default', () => {
    expect(report.rows).toHaveLength(9);
    for (const entry of report.rows) {
      expect(entry.trialSlots).toBe(125);
      expect(entry.oomsBySeed).toHaveLength(5);
      expect(entry.okTrials + entry.ooms + entry.timeouts + entry.blockedSlots).toBe(125);
    }
  });

  it('reproduces the v6 pattern without a guard: two OOMs in every fresh session', () => {
    expect(row('fresh-session', 'vanilla').oomsBySeed).toEqual([2, 2, 2, 2, 2]);
  });

  it('has no OOM after the first seed when constraints are carried across sessions', () => {
    for (const proposer of ['fresh-session', 'frontier'] as const) {
      const carried = row(proposer, 'narrowing-carried');
      expect(carried.oomsBySeed.slice(1)).toEqual([0, 0, 0, 0]);
    }
    expect(row('fresh-session', 'narrowing-carried').blockedProposals).toBeGreaterThan(0);
  });

  it('saves at most one OOM per seed for the frontier proposer within one session', () => {
    const vanilla = row('frontier', 'vanilla');
    const narrowing = row('frontier', 'narrowing');
    vanilla.oomsBySeed.forEach((ooms, seed) => {
      const saved = ooms - (narrowing.oomsBySeed[seed] ?? 0);
      expect(saved).toBeGreaterThanOrEqual(0);
      expect(saved).toBeLessThanOrEqual(1);
    });
  });

  it('saves more OOMs for the forgetful proposer than for the frontier one', () => {
    const saved = (proposer: ProposerName) => row(proposer, 'vanilla').ooms - row(proposer, 'narrowing').ooms;
    expect(saved('forgetful')).toBeGreaterThan(saved('frontier'));
  });

  it('never blocks a configuration that would have fitted in memory', () => {
    for (const entry of report.rows) expect(entry.falseBlocks).toBe(0);
  });

  it('lets timeouts teach nothing: they are the same in every mode', () => {
    const timeouts = new Set(report.rows.map((entry) => entry.timeouts));
    expect(timeouts.size).toBe(1);
  });

  it('prints JSON with the config and the rows, and a table with the paper beside', async () => {
    const { io, stdout } = captureIO();
    expect(await mlSearchCommand({ json: true, seeds: [1, 2], trials: 10 }, io)).toBe(0);
    const json = JSON.parse(stdout());
    expect(json.config).toMatchObject({ seeds: [1, 2], trials: 10, batchSize: 32, window: 3 });
    expect(json.rows[0]).toMatchObject({ proposer: 'frontier', mode: 'vanilla', trialSlots: 20 });
    const text = formatMlSearch(report);
    expect(text).toContain('The paper (v6, Gemini 2.5 Flash on an L4, published)');
    expect(text).toMatch(/fresh-session .*carrying constraints across sessions saves 9 of 10 OOMs/);
  });
});
