import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../../src/adapters/tool-call/index.js';
import { createUnavailableValueDetector } from '../../../src/core/detectors/index.js';
import {
  change,
  FIRST,
  flight,
  issue,
  RETRY,
  UNAVAILABLE_TEXT,
  ZOD_REJECTION_TEXT,
} from '../../fixtures/guesses/airline.js';
import { Agent } from '../support.js';

const UNAVAILABLE = { text: UNAVAILABLE_TEXT, isError: true };

const ZOD_REJECTION = {
  text: ZOD_REJECTION_TEXT,
  isError: true,
};

/** A new guard holding what `agent` saved, as a new process reads it back from a store. */
function restarted(agent: Agent): Agent {
  const next = new Agent();
  next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
  return next;
}

function afterRefusal(): Agent {
  const agent = new Agent();
  agent.call('update_reservation_flights', FIRST, UNAVAILABLE);
  return agent;
}

function afterRejection(): Agent {
  const agent = new Agent();
  agent.call('create_issue', issue({ task_progress: '- [ ] File the issue' }), ZOD_REJECTION);
  return agent;
}

describe('unavailable-value across a restart', () => {
  it('blocks the retry still asking for the unavailable flight in a guard restored from a snapshot', () => {
    const check = restarted(afterRefusal()).check('update_reservation_flights', RETRY);
    expect(check).toMatchObject({ verdict: 'block', rule: 'unavailable-value' });
  });

  it('quotes the flight, the error and the refused call from the live call once restored', () => {
    const live = afterRefusal().check('update_reservation_flights', RETRY);
    const restored = restarted(afterRefusal()).check('update_reservation_flights', RETRY);
    expect(restored.reason).toBe(live.reason);
    expect(restored.reason).toContain('still asks for HAT217 and 2024-05-18');
    expect(restored.reason).toContain('("Error: flight HAT217 not available on date 2024-05-18")');
    expect(restored.violations[0]?.evidence).toEqual(live.violations[0]?.evidence);
  });

  it('still allows, once restored, a retry that leaves the unavailable flight out', () => {
    const check = restarted(afterRefusal()).check(
      'update_reservation_flights',
      change(flight('HAT088', '2024-05-26')),
    );
    expect(check.verdict).toBe('allow');
  });

  it('blocks the rejected argument with another value in a guard restored from a snapshot', () => {
    const check = restarted(afterRejection()).check(
      'create_issue',
      issue({ task_progress: '- [x] Drafted\n- [ ] File it' }),
    );
    expect(check).toMatchObject({ verdict: 'block', rule: 'unavailable-value' });
    expect(check.suggestion).toContain('without task_progress');
    expect(check.reason).toContain("Unrecognized key(s) in object: 'task_progress'");
  });

  it('still allows, once restored, the call without the rejected argument', () => {
    expect(restarted(afterRejection()).check('create_issue', issue({})).verdict).toBe('allow');
  });

  it('saves no argument value or name in clear', () => {
    const agent = afterRefusal();
    agent.call('create_issue', issue({ task_progress: '- [ ] File the issue' }), ZOD_REJECTION);
    const saved = JSON.stringify(agent.loop.sessionSnapshot().detectors['unavailable-value']);
    for (const value of ['HAT217', 'HAT088', '2024-05-18', 'XEWRD9', 'gift_card_4643416', 'economy']) {
      expect(saved).not.toContain(value);
    }
    for (const value of ['task_progress', 'File the issue', 'acme', 'billing', 'Webhook retries']) {
      expect(saved).not.toContain(value);
    }
    expect(saved).toContain('not available on');
  });

  it('ignores a snapshot of the version that saved nothing', () => {
    const detector = createUnavailableValueDetector();
    detector.restore({ version: 1 });
    expect(detector.snapshot()).toEqual({ version: 2, refusals: [], rejections: [], commands: [] });
  });

  it('ignores a hostile or corrupt snapshot, and never throws reading one or checking after it', () => {
    const agent = afterRefusal();
    agent.call('create_issue', issue({ task_progress: '- [ ] File the issue' }), ZOD_REJECTION);
    const valid = agent.loop.sessionSnapshot().detectors['unavailable-value'] as Record<string, unknown>;
    const proposal = toolCallToProposal('update_reservation_flights', RETRY);
    const hostile = fc.oneof(
      fc.anything(),
      fc.jsonValue(),
      fc.record({ version: fc.constant(2), refusals: fc.anything(), rejections: fc.anything() }),
      fc.record({
        version: fc.constant(2),
        refusals: fc.jsonValue(),
        rejections: fc.constant(valid.rejections),
      }),
      fc.record({
        version: fc.constant(2),
        refusals: fc.array(fc.tuple(fc.string(), fc.record({ list: fc.array(fc.jsonValue()) }))),
        rejections: fc.array(fc.tuple(fc.string(), fc.jsonValue())),
      }),
    );
    fc.assert(
      fc.property(hostile, (state) => {
        const guard = agent.restoredWith('unavailable-value', state);
        expect(['allow', 'block', 'warn']).toContain(guard.loop.checkProposal(proposal).verdict);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps what it reads of a snapshot bounded, however long its lists', () => {
    const agent = afterRefusal();
    const valid = agent.loop.sessionSnapshot().detectors['unavailable-value'] as {
      refusals: [string, { list: unknown[] }][];
    };
    const [key, { list }] = valid.refusals[0] as [string, { list: unknown[] }];
    const huge = {
      version: 2,
      refusals: Array.from({ length: 5_000 }, (_, i) => [
        i === 4_999 ? key : `${i}`,
        { list: Array(500).fill(list[0]) },
      ]),
      rejections: [],
    };
    const detector = createUnavailableValueDetector();
    detector.restore(huge);
    const saved = detector.snapshot() as { refusals: [string, { list: unknown[] }][] };
    expect(saved.refusals).toHaveLength(1);
    expect(saved.refusals[0]?.[1].list).toHaveLength(8);
  });
});
