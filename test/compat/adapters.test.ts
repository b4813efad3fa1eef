import { afterEach, describe, expect, it } from 'vitest';
import {
  classifyBlame,
  computeParameterDeltas,
  createMLTrainingAdapter,
  createToolCallAdapter,
  extractSignature,
  NarrowingLoop,
  toolCallToOutcome,
  toolCallToProposal,
} from '../../src/compat/index.js';

const OOM =
  'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 22.05 GiB total)';
const BASE = { depth: 4, aspect_ratio: 64, matrix_lr: 0.04 };
const loops: NarrowingLoop[] = [];

afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.close()));
});

describe('createToolCallAdapter of narrowing-guard/compat', () => {
  const adapter = createToolCallAdapter();

  it('extracts the signature of an error string', () => {
    expect(adapter.extractSignature("ENOENT: no such file or directory, open 'a.ts'")).toBe('file_not_found');
  });

  it('returns no signature for an error it does not recognise', () => {
    expect(adapter.extractSignature('the moon is in the wrong phase')).toBeUndefined();
  });

  it('blames the harness for a rate limit and the agent for a failed edit', () => {
    expect(adapter.classifyBlame('HTTP 429 Too Many Requests')).toBe('harness_fault');
    expect(adapter.classifyBlame('edit failed: search string not found in file')).toBe('agent_failure');
  });

  it('classifies a call from the tool name among its parameters', () => {
    expect(adapter.classifyAction({ tool: 'readFile', path: 'src/a.ts' }, ['src/a.ts'])).toBe('file_read');
    expect(adapter.classifyAction({ tool: 'run_terminal_cmd', command: 'npm test' }, [])).toBe('shell_exec');
  });

  it('extracts the tool, the target as spelled, the fingerprint of that package and the call key', () => {
    expect(adapter.extractParameters({ tool: 'read_file', path: './src/../src/a.ts' })).toEqual({
      tool: 'read_file',
      target: './src/../src/a.ts',
      _fingerprint: 't:read_file|@./src/../src/a.ts',
      _callKey: expect.stringMatching(/^read_file#/),
    });
  });

  it('lists signature patterns that each match for their signature', () => {
    const names = new Set(adapter.signaturePatterns.map((pattern) => pattern.signature));
    expect(names).toEqual(
      new Set([
        'tool_timeout',
        'tool_not_found',
        'permission_denied',
        'rate_limited',
        'file_not_found',
        'syntax_error',
        'edit_failed',
        'command_failed',
        'validation_error',
        'conflict',
        'empty_result',
        'api_error',
      ]),
    );
    expect(adapter.signaturePatterns.every((pattern) => pattern.pattern instanceof RegExp)).toBe(true);
  });
});

describe('toolCallToProposal and toolCallToOutcome of narrowing-guard/compat', () => {
  it('put the tool among the parameters and find the targets', () => {
    expect(
      toolCallToProposal('edit_file', { file_path: 'server.js', old_string: 'foo', new_string: 'bar' }),
    ).toEqual({
      parameters: { tool: 'edit_file', file_path: 'server.js', old_string: 'foo', new_string: 'bar' },
      targets: ['server.js'],
    });
  });

  it('build an outcome from the original result shape', () => {
    expect(
      toolCallToOutcome(
        'edit_file',
        { file: 'server.js' },
        { success: false, error: 'edit failed', durationMs: 45 },
      ),
    ).toEqual({
      score: null,
      status: 'failure',
      error: 'edit failed',
      parameters: { tool: 'edit_file', file: 'server.js' },
      targets: ['server.js'],
      durationMs: 45,
    });
  });

  it('build an outcome from an MCP result, keeping its text', () => {
    const outcome = toolCallToOutcome(
      'search_files',
      { pattern: 'TODO', path: 'src' },
      { content: [{ type: 'text', text: 'No matches found' }] },
    );
    expect(outcome).toMatchObject({ status: 'success', content: 'No matches found', targets: ['src'] });
  });
});

describe('createMLTrainingAdapter and computeParameterDeltas of narrowing-guard/compat', () => {
  it('marks each changed parameter with its earlier value and direction', () => {
    expect(computeParameterDeltas(BASE, { ...BASE, depth: 8, matrix_lr: 0.02, optimizer: 'adamw' })).toEqual({
      depth: 8,
      aspect_ratio: 64,
      matrix_lr: 0.02,
      optimizer: 'adamw',
      _prev_depth: 4,
      _prev_matrix_lr: 0.04,
      _delta: { depth: 'increased', matrix_lr: 'decreased' },
    });
  });

  it('classifies a trial relative to the previous one from the delta markers', () => {
    const adapter = createMLTrainingAdapter();
    expect(adapter.classifyAction(computeParameterDeltas(BASE, { ...BASE, depth: 12 }), [])).toBe(
      'scale_up_depth',
    );
    expect(adapter.classifyAction(computeParameterDeltas(BASE, { ...BASE, matrix_lr: 0.08 }), [])).toBe(
      'lr_increase',
    );
  });

  it('reads a CUDA out-of-memory error as the agent choosing a model too large', () => {
    const adapter = createMLTrainingAdapter();
    expect(adapter.extractSignature(OOM)).toBe('oom_gpu');
    expect(adapter.classifyBlame(OOM)).toBe('agent_failure');
  });

  it('keeps hyperparameters and delta markers, and drops nested metadata', () => {
    const marked = computeParameterDeltas(BASE, { ...BASE, depth: 8, notes: { by: 'gemini' } });
    expect(createMLTrainingAdapter().extractParameters(marked)).toEqual({
      depth: 8,
      aspect_ratio: 64,
      matrix_lr: 0.04,
      _prev_depth: 4,
      _delta: { depth: 'increased' },
    });
  });

  it('blocks a deeper model after an out-of-memory failure, without waiting for a second one', () => {
    const loop = new NarrowingLoop({ adapter: createMLTrainingAdapter(), journalPath: false });
    loops.push(loop);
    loop.recordOutcome({ score: 1.92, status: 'success', parameters: BASE, targets: [], durationMs: 90_000 });
    const deeper = computeParameterDeltas(BASE, { ...BASE, depth: 8 });
    loop.recordOutcome({
      score: null,
      status: 'failure',
      error: OOM,
      parameters: deeper,
      targets: [],
      durationMs: 30_000,
    });
    const check = loop.checkProposal({
      parameters: computeParameterDeltas(BASE, { ...BASE, depth: 10 }),
      targets: [],
    });
    expect(check.allowed).toBe(false);
    expect(check.violations[0]).toMatchObject({
      banType: 'parameter',
      constraint: { type: 'parameter_ban', bannedParameter: 'depth', bannedValues: [8] },
    });
  });
});

describe('extractSignature and classifyBlame of narrowing-guard/compat', () => {
  it('ask the given adapter', () => {
    const adapter = createToolCallAdapter();
    expect(extractSignature('SyntaxError: Unexpected token', adapter)).toBe('syntax_error');
    expect(classifyBlame('ETIMEDOUT while connecting', adapter)).toBe('harness_fault');
  });
});
