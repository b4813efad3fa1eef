import { afterEach, describe, expect, it } from 'vitest';
import {
  bridgeAdapter,
  CompatError,
  type DomainAdapter,
  type FailureKind,
  NarrowingLoop,
  type RawOutcome,
} from '../../src/compat/index.js';

/** A deployment adapter written to the interface of @sovereign-labs/narrowing. */
function createDeployAdapter(): DomainAdapter {
  const patterns = [
    {
      pattern: /ImagePullBackOff|manifest unknown/i,
      signature: 'image_missing',
      typicallyHarness: false,
      description: 'The image tag does not exist',
    },
    {
      pattern: /CrashLoopBackOff/i,
      signature: 'crash_loop',
      typicallyHarness: false,
      description: 'The container keeps crashing',
    },
    {
      pattern: /connection refused|i\/o timeout/i,
      signature: 'cluster_unreachable',
      typicallyHarness: true,
      description: 'The API server did not answer',
    },
  ];
  return {
    name: 'deploy',
    extractSignature: (error) => patterns.find(({ pattern }) => pattern.test(error))?.signature,
    classifyBlame(error): FailureKind {
      const found = patterns.find(({ pattern }) => pattern.test(error));
      if (!found) return 'unknown';
      return found.typicallyHarness ? 'harness_fault' : 'agent_failure';
    },
    classifyAction: (params) => (params.replicas !== undefined ? 'scale' : 'rollout'),
    extractParameters: (raw) => ({ image: raw.image, replicas: raw.replicas }),
    signaturePatterns: patterns,
  };
}

const loops: NarrowingLoop[] = [];

function newLoop(): NarrowingLoop {
  const loop = new NarrowingLoop({ adapter: createDeployAdapter(), journalPath: false });
  loops.push(loop);
  return loop;
}

function rollout(image: string, error?: string): RawOutcome {
  const outcome: RawOutcome = {
    score: null,
    status: error ? 'failure' : 'success',
    parameters: { image },
    targets: ['deployment/api'],
    durationMs: 12_000,
  };
  if (error) outcome.error = error;
  return outcome;
}

afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.close()));
});

describe('an adapter written to the original DomainAdapter interface', () => {
  it('classifies outcomes with its own signature, blame and action class', () => {
    const result = newLoop().recordOutcome(rollout('api:1.4.2', 'Back-off pulling image: ImagePullBackOff'));
    expect(result.outcome).toMatchObject({
      failureSignature: 'image_missing',
      failureKind: 'agent_failure',
      actionClass: 'rollout',
      parameters: { image: 'api:1.4.2', replicas: undefined },
    });
  });

  it('blocks a call after the corroboration threshold of two identical failures', () => {
    const loop = newLoop();
    const proposal = { parameters: { image: 'api:1.4.2' }, targets: ['deployment/api'] };
    loop.recordOutcome(rollout('api:1.4.2', 'ImagePullBackOff'));
    expect(loop.checkProposal(proposal).allowed).toBe(true);
    loop.recordOutcome(rollout('api:1.4.2', 'ImagePullBackOff'));
    const check = loop.checkProposal(proposal);
    expect(check.allowed).toBe(false);
    expect(check.violations[0]).toMatchObject({
      banType: 'call',
      constraint: { signature: 'image_missing' },
    });
  });

  it('lets another image through after one kept failing', () => {
    const loop = newLoop();
    loop.recordOutcome(rollout('api:1.4.2', 'ImagePullBackOff'));
    loop.recordOutcome(rollout('api:1.4.2', 'ImagePullBackOff'));
    expect(
      loop.checkProposal({ parameters: { image: 'api:1.4.1' }, targets: ['deployment/api'] }).allowed,
    ).toBe(true);
  });

  it('treats the same parameters against another target as another call', () => {
    const loop = newLoop();
    loop.recordOutcome(rollout('api:1.4.2', 'ImagePullBackOff'));
    loop.recordOutcome(rollout('api:1.4.2', 'ImagePullBackOff'));
    expect(
      loop.checkProposal({ parameters: { image: 'api:1.4.2' }, targets: ['deployment/worker'] }).allowed,
    ).toBe(true);
  });

  it('never learns from the faults it blames on the harness', () => {
    const loop = newLoop();
    for (let attempt = 0; attempt < 6; attempt++) {
      loop.recordOutcome(rollout('api:1.4.2', 'dial tcp 10.0.0.1:6443: connection refused'));
    }
    expect(loop.getActiveConstraints()).toEqual([]);
  });

  it('bridges into the engine adapter interface with its name and signatures', () => {
    const bridged = bridgeAdapter(createDeployAdapter());
    expect(bridged.name).toBe('deploy');
    expect(bridged.signatures).toEqual(['image_missing', 'crash_loop', 'cluster_unreachable']);
    expect(bridged.describeCall({ tool: 'deploy', args: { image: 'api:2.0.0', replicas: 3 } })).toMatchObject(
      {
        actionClass: 'scale',
        parameters: { image: 'api:2.0.0', replicas: 3 },
      },
    );
  });

  it('is refused with ADAPTER_INVALID when it lacks a method of the interface', () => {
    const incomplete = { ...createDeployAdapter(), classifyBlame: undefined } as unknown as DomainAdapter;
    const attempt = () => new NarrowingLoop({ adapter: incomplete, journalPath: false });
    expect(attempt).toThrow(CompatError);
    expect(attempt).toThrow(/lacks classifyBlame/);
    try {
      attempt();
    } catch (error) {
      expect((error as CompatError).code).toBe('ADAPTER_INVALID');
    }
  });
});
