import { describe, expect, it } from 'vitest';
import { createMlTrainingAdapter } from '../../../src/adapters/ml-training/adapter.js';
import {
  ML_TRIAL_TOOL,
  mlTrialToOutcome,
  mlTrialToProposal,
} from '../../../src/adapters/ml-training/convert.js';

const BASELINE = { depth: 4, aspect_ratio: 64, matrix_lr: 0.02, batch_size: 16, optimizer: 'muon' };

function classOf(config: Record<string, unknown>, baseline: Record<string, unknown> = BASELINE): string {
  const adapter = createMlTrainingAdapter({ baseline });
  return adapter.describeCall(mlTrialToProposal(config)).actionClass;
}

describe('action classes from deltas against the baseline', () => {
  it('lists the paper eight plus baseline', () => {
    expect(createMlTrainingAdapter().actionClasses).toEqual([
      'architecture_swap',
      'optimizer_change',
      'scale_up_depth',
      'scale_up_width',
      'batch_size_increase',
      'scale_down',
      'lr_increase',
      'lr_decrease',
      'baseline',
    ]);
  });

  it('reads each single change', () => {
    expect(classOf({ ...BASELINE, depth: 8 })).toBe('scale_up_depth');
    expect(classOf({ ...BASELINE, aspect_ratio: 96 })).toBe('scale_up_width');
    expect(classOf({ ...BASELINE, batch_size: 32 })).toBe('batch_size_increase');
    expect(classOf({ ...BASELINE, depth: 2 })).toBe('scale_down');
    expect(classOf({ ...BASELINE, matrix_lr: 0.04 })).toBe('lr_increase');
    expect(classOf({ ...BASELINE, matrix_lr: 0.01 })).toBe('lr_decrease');
    expect(classOf({ ...BASELINE, optimizer: 'adamw' })).toBe('optimizer_change');
    expect(classOf({ ...BASELINE, activation: 'gelu' }, { ...BASELINE, activation: 'relu2' })).toBe(
      'architecture_swap',
    );
  });

  it('names a trial that changes several things by the most consequential change', () => {
    expect(classOf({ ...BASELINE, depth: 8, matrix_lr: 0.01 })).toBe('scale_up_depth');
    expect(classOf({ ...BASELINE, depth: 2, matrix_lr: 0.04 })).toBe('scale_down');
    expect(classOf({ ...BASELINE, optimizer: 'adamw', depth: 8 })).toBe('optimizer_change');
  });

  it('calls an unchanged config the baseline', () => {
    expect(classOf(BASELINE)).toBe('baseline');
    expect(classOf({ ...BASELINE, seed: 3 })).toBe('baseline');
  });

  it('compares aliases with their canonical names', () => {
    expect(classOf({ n_layer: 12, learning_rate: 0.02 }, { depth: 6, lr: 0.02 })).toBe('scale_up_depth');
    expect(classOf({ n_embd: 1024 }, { d_model: 768 })).toBe('scale_up_width');
    expect(classOf({ bs: 64 }, { batch_size: 32 })).toBe('batch_size_increase');
  });

  it('takes the first trial as the baseline when none is given', () => {
    const adapter = createMlTrainingAdapter();
    expect(adapter.describeCall(mlTrialToProposal(BASELINE)).actionClass).toBe('baseline');
    expect(adapter.describeCall(mlTrialToProposal({ ...BASELINE, depth: 6 })).actionClass).toBe(
      'scale_up_depth',
    );
  });
});

describe('call facts of a trial', () => {
  const adapter = createMlTrainingAdapter({ baseline: BASELINE });

  it('is an exec with the hyperparameters under canonical names', () => {
    const facts = adapter.describeCall(
      mlTrialToProposal({ n_layer: 8, hidden_size: 512, bs: 32, lr: 3e-4, optimizer: 'adamw' }),
    );
    expect(facts).toMatchObject({
      kind: 'exec',
      targets: [],
      parameters: { depth: 8, width: 512, batch_size: 32, lr: 3e-4, optimizer: 'adamw' },
    });
  });

  it('keeps both values when a name and its alias are both given', () => {
    const facts = adapter.describeCall(mlTrialToProposal({ lr: 0.001, matrix_lr: 0.02 }));
    expect(facts.parameters).toEqual({ lr: 0.001, matrix_lr: 0.02 });
  });

  it('takes the experiment name as the target, not as a parameter', () => {
    const facts = adapter.describeCall(mlTrialToProposal({ experiment: 'shakespeare-v6', depth: 8 }));
    expect(facts.targets).toEqual(['shakespeare-v6']);
    expect(facts.parameters).toEqual({ depth: 8 });
  });

  it('leaves out values that are not numbers, strings or booleans', () => {
    const facts = adapter.describeCall(mlTrialToProposal({ depth: 8, layers_spec: [1, 2], nan: Number.NaN }));
    expect(facts.parameters).toEqual({ depth: 8 });
  });

  it('accepts extra aliases', () => {
    const custom = createMlTrainingAdapter({ parameterAliases: { num_blocks: 'depth' } });
    expect(custom.describeCall(mlTrialToProposal({ num_blocks: 10 })).parameters).toEqual({ depth: 10 });
  });
});

describe('converters', () => {
  it('proposes every trial under one tool name', () => {
    expect(mlTrialToProposal({ depth: 8 })).toEqual({ tool: ML_TRIAL_TOOL, args: { depth: 8 } });
  });

  it('carries the score and the error of a trial', () => {
    expect(mlTrialToOutcome({ depth: 8 }, { ok: true, score: 1.866, durationMs: 90_000 })).toMatchObject({
      success: true,
      score: 1.866,
      durationMs: 90_000,
    });
    expect(mlTrialToOutcome({ depth: 16 }, { ok: false, error: 'CUDA out of memory' })).toMatchObject({
      success: false,
      error: 'CUDA out of memory',
    });
  });
});
