import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMlTrainingAdapter } from '../../../src/adapters/ml-training/adapter.js';
import { mlTrialToOutcome } from '../../../src/adapters/ml-training/convert.js';
import { ML_TRAINING_SIGNATURES } from '../../../src/adapters/ml-training/signatures.js';
import type { Outcome } from '../../../src/core/types.js';

const CONFIG = { depth: 8, aspect_ratio: 64, matrix_lr: 0.04, batch_size: 32 };

function failureOf(error: string, config: Record<string, unknown> = CONFIG, extra: Partial<Outcome> = {}) {
  const adapter = createMlTrainingAdapter();
  const outcome = { ...mlTrialToOutcome(config, { ok: false, error }), ...extra };
  return adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
}

describe('the ML signature list', () => {
  it('has fourteen signatures including the four the paper names', () => {
    expect(ML_TRAINING_SIGNATURES).toHaveLength(14);
    expect(ML_TRAINING_SIGNATURES).toEqual(
      expect.arrayContaining(['oom_gpu', 'training_divergence', 'gradient_explosion', 'tensor_shape_error']),
    );
  });
});

describe('syntax_error', () => {
  it('reads a SyntaxError in the training code as a deterministic agent failure', () => {
    expect(
      failureOf('  File "train.py", line 42\n    x = (\nSyntaxError: unexpected EOF while parsing'),
    ).toMatchObject({
      signature: 'syntax_error',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('reads IndentationError and TabError the same way, by text or by exception name', () => {
    expect(failureOf('IndentationError: unexpected indent')?.signature).toBe('syntax_error');
    expect(failureOf('TabError: inconsistent use of tabs and spaces in indentation')?.signature).toBe(
      'syntax_error',
    );
    expect(failureOf('line 3', CONFIG, { exceptionName: 'builtins.IndentationError' })?.signature).toBe(
      'syntax_error',
    );
  });

  it('does not take the word syntax alone for a syntax error', () => {
    expect(failureOf('invalid syntax highlighting theme in notebook')?.signature).not.toBe('syntax_error');
  });
});

describe('NCCL', () => {
  it('blames the interconnect for a bare NCCL timeout, not the trial', () => {
    expect(failureOf('NCCL timeout on rank 0')).toMatchObject({
      signature: 'cuda_error',
      blame: 'harness_fault',
    });
    expect(failureOf('[Rank 3] NCCL watchdog thread terminated with exception')?.blame).toBe('harness_fault');
  });
});

describe('oom_gpu', () => {
  const torchOom =
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of ' +
    '22.03 GiB of which 1.19 GiB is free.';

  it('recognises the PyTorch CUDA OOM as a deterministic agent failure', () => {
    expect(failureOf(torchOom)).toMatchObject({
      signature: 'oom_gpu',
      blame: 'agent_failure',
      deterministic: true,
      meaning: 'call',
    });
  });

  it('recognises cuBLAS allocation failures, TensorFlow and a bare OOM', () => {
    expect(
      failureOf('RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling cublasCreate(handle)')
        ?.signature,
    ).toBe('oom_gpu');
    expect(
      failureOf('ResourceExhaustedError: OOM when allocating tensor with shape[32,1024,1024]')?.signature,
    ).toBe('oom_gpu');
    expect(failureOf('trial 7: OOM at step 12')?.signature).toBe('oom_gpu');
  });

  it('does not take room or zoom for OOM', () => {
    expect(failureOf('no room left in the zoom buffer, aborting')?.signature).not.toBe('oom_gpu');
    expect(failureOf('no room left in the zoom buffer, aborting')?.signature).not.toBe('oom_cpu');
  });

  it('marks every memory parameter of the trial as growing the failure', () => {
    const config = { n_layer: 12, n_embd: 768, batch_size: 32, block_size: 1024, matrix_lr: 0.02 };
    expect(failureOf(torchOom, config)?.monotone).toEqual([
      { parameter: 'depth', direction: 'up' },
      { parameter: 'width', direction: 'up' },
      { parameter: 'batch_size', direction: 'up' },
      { parameter: 'seq_len', direction: 'up' },
    ]);
  });

  it('lets an OOM ban every larger size when the rest of the trial is only learning rates', () => {
    expect(failureOf(torchOom)?.monotoneOnly).toBe(true);
    expect(failureOf(torchOom, { ...CONFIG, seed: 3, warmup_steps: 100 })?.monotoneOnly).toBe(true);
  });

  it('keeps an OOM ban to the optimiser it failed with', () => {
    expect(failureOf(torchOom, { ...CONFIG, optimizer: 'adamw' })?.monotoneOnly).toBeUndefined();
  });

  it('reads the exception name first', () => {
    expect(
      failureOf('allocation failed', CONFIG, { exceptionName: 'torch.cuda.OutOfMemoryError' })?.signature,
    ).toBe('oom_gpu');
  });
});

describe('oom_cpu', () => {
  it('recognises host memory exhaustion and the OOM killer', () => {
    expect(failureOf('MemoryError: Unable to allocate 8.00 GiB for an array')?.signature).toBe('oom_cpu');
    expect(failureOf('Out of memory: Killed process 4242 (python)')?.signature).toBe('oom_cpu');
    expect(failureOf('step 10\nKilled')?.signature).toBe('oom_cpu');
  });

  it('also bans growth of memory parameters', () => {
    expect(failureOf('MemoryError')?.monotone?.map((m) => m.parameter)).toEqual([
      'depth',
      'aspect_ratio',
      'batch_size',
    ]);
  });
});

describe('training_divergence and gradient_explosion', () => {
  it('recognises NaN and infinite losses', () => {
    for (const log of [
      'step 120 | loss: nan',
      'val_loss=inf',
      'Loss is NaN, stopping training',
      'FloatingPointError: Loss became infinite or NaN at iteration=88',
    ]) {
      expect({ log, signature: failureOf(log)?.signature }).toEqual({
        log,
        signature: 'training_divergence',
      });
    }
  });

  it('recognises exploding gradient norms', () => {
    expect(failureOf('step 40 | grad norm: 18234.5 | loss 9.1')?.signature).toBe('gradient_explosion');
    expect(failureOf('grad_norm=inf')?.signature).toBe('gradient_explosion');
  });

  it('does not take a healthy grad norm or a KL divergence metric for failure', () => {
    expect(failureOf('step 40 | grad norm: 1.53 | kl_divergence 0.2 | loss 2.1')?.signature).toBe(
      'trial_crash',
    );
  });

  it('marks the learning rates as growing the failure, not the sizes', () => {
    const config = { depth: 8, matrix_lr: 0.08, embedding_lr: 0.3, batch_size: 32 };
    const facts = failureOf('loss: nan', config);
    expect(facts?.monotoneOnly).toBeUndefined();
    expect(facts).toMatchObject({
      signature: 'training_divergence',
      blame: 'agent_failure',
      deterministic: false,
    });
    expect(facts?.monotone).toHaveLength(2);
    expect(facts?.monotone).toEqual(
      expect.arrayContaining([
        { parameter: 'lr', direction: 'up' },
        { parameter: 'embedding_lr', direction: 'up' },
      ]),
    );
  });
});

describe('tensor_shape_error and dtype_mismatch', () => {
  it('recognises shape errors', () => {
    for (const log of [
      'RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 768x768)',
      'RuntimeError: The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1',
      'Error(s) in loading state_dict for GPT: size mismatch for lm_head.weight',
      "RuntimeError: shape '[32, -1, 12, 64]' is invalid for input of size 1000",
    ]) {
      expect({ log, signature: failureOf(log)?.signature }).toEqual({ log, signature: 'tensor_shape_error' });
    }
  });

  it('recognises dtype mismatches', () => {
    expect(failureOf('RuntimeError: expected scalar type Float but found Half')?.signature).toBe(
      'dtype_mismatch',
    );
  });

  it('has no monotone parameters', () => {
    expect(failureOf('size mismatch')?.monotone).toBeUndefined();
  });
});

describe('harness faults', () => {
  it('blames the machine for a full disk, a missing module, a dead data loader and a timeout', () => {
    expect(failureOf('OSError: [Errno 28] No space left on device')).toMatchObject({
      signature: 'disk_full',
      blame: 'harness_fault',
    });
    expect(failureOf("ModuleNotFoundError: No module named 'flash_attn'")).toMatchObject({
      signature: 'import_error',
      blame: 'harness_fault',
    });
    expect(failureOf('RuntimeError: DataLoader worker (pid 311) is killed by signal: Killed.')).toMatchObject(
      {
        signature: 'data_loader_error',
        blame: 'harness_fault',
      },
    );
    expect(failureOf('trial timed out after 90s')).toMatchObject({
      signature: 'trial_timeout',
      blame: 'harness_fault',
    });
  });

  it('blames the machine for a missing GPU but nobody for a device-side assert', () => {
    expect(failureOf('RuntimeError: No CUDA GPUs are available')?.blame).toBe('harness_fault');
    expect(failureOf('RuntimeError: CUDA error: device-side assert triggered')).toMatchObject({
      signature: 'cuda_error',
      blame: 'unknown',
    });
  });

  it('reads a disk-full error code', () => {
    expect(failureOf('write failed', CONFIG, { errorCode: 'ENOSPC' })?.signature).toBe('disk_full');
  });
});

describe('invalid_config and unknown crashes', () => {
  it('blames the config for values the code rejects', () => {
    expect(failureOf('AssertionError: n_embd must be divisible by n_head')).toMatchObject({
      signature: 'invalid_config',
      blame: 'agent_failure',
      deterministic: true,
    });
  });

  it('blames nobody for a crash it cannot read', () => {
    expect(failureOf('Segmentation fault (core dumped)')).toMatchObject({
      signature: 'trial_crash',
      blame: 'unknown',
    });
    expect(failureOf('')).toMatchObject({ signature: 'trial_crash', blame: 'unknown' });
  });

  it('reports nothing for a successful trial', () => {
    const adapter = createMlTrainingAdapter();
    const outcome = mlTrialToOutcome(CONFIG, { ok: true, score: 1.87 });
    expect(adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal))).toBeUndefined();
  });
});

describe('robustness', () => {
  it('never throws on arbitrary configs and logs', () => {
    const adapter = createMlTrainingAdapter();
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (config, log) => {
        const outcome = mlTrialToOutcome(config, { ok: false, error: log });
        const facts = adapter.describeFailure(outcome, adapter.describeCall(outcome.proposal));
        expect(ML_TRAINING_SIGNATURES).toContain(facts?.signature);
      }),
    );
  });
});

describe('collective communication (NCCL)', () => {
  it.each([
    'RuntimeError: NCCL communicator was aborted on rank 1. Original reason for failure was: [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600057 milliseconds before timing out.',
    '[E ProcessGroupNCCL.cpp:475] [Rank 0] Watchdog caught collective operation timeout',
    'ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.',
    'torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled cuda error, NCCL version 2.14.3',
  ])('blames the interconnect, never the trial, for %s', (error) => {
    expect(failureOf(error)).toMatchObject({ blame: 'harness_fault' });
  });
});
