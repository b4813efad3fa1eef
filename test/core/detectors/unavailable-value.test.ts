import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extendsArguments } from '../../../src/core/detectors/index.js';
import {
  change,
  FIRST,
  flight,
  issue,
  UNAVAILABLE_TEXT,
  ZOD_REJECTION_TEXT,
} from '../../fixtures/guesses/airline.js';
import { Agent } from '../support.js';

const UNAVAILABLE = { text: UNAVAILABLE_TEXT, isError: true };

function afterRefusal(): Agent {
  const agent = new Agent();
  agent.call('update_reservation_flights', FIRST, UNAVAILABLE);
  return agent;
}

describe('unavailable-value', () => {
  it('blocks a retry that still asks for the unavailable flight and only adds another', () => {
    const check = afterRefusal().check(
      'update_reservation_flights',
      change(flight('HAT217', '2024-05-18'), flight('HAT088', '2024-05-26'), flight('HAT151', '2024-05-26')),
    );
    expect(check).toMatchObject({ verdict: 'block', rule: 'unavailable-value' });
    expect(check.reason).toContain('still asks for HAT217 and 2024-05-18');
    expect(check.suggestion).toContain('Leave HAT217 and 2024-05-18 out of the request');
  });

  it('keeps blocking after a user message, which does not make the flight available', () => {
    const agent = afterRefusal();
    agent.loop.newRun('user');
    agent.call('search_direct_flight', { origin: 'ATL', destination: 'LAS', date: '2024-05-26' }, '[]');
    const retry = change(
      flight('HAT217', '2024-05-18'),
      flight('HAT088', '2024-05-26'),
      flight('HAT151', '2024-05-26'),
    );
    expect(agent.check('update_reservation_flights', retry).rule).toBe('unavailable-value');
  });

  it('allows a retry that leaves the unavailable flight out', () => {
    expect(
      afterRefusal().check('update_reservation_flights', change(flight('HAT088', '2024-05-26'))).verdict,
    ).toBe('allow');
  });

  it('allows a retry that changes anything else it asked for, such as the cabin', () => {
    const retry = {
      ...FIRST,
      cabin: 'business',
      flights: [...FIRST.flights, flight('HAT151', '2024-05-26')],
    };
    expect(afterRefusal().check('update_reservation_flights', retry).verdict).toBe('allow');
  });

  it('allows the retry once another change has gone through', () => {
    const agent = afterRefusal();
    agent.call(
      'cancel_reservation',
      { reservation_id: 'NM1VX1' },
      '{"reservation_id": "NM1VX1", "status": "cancelled"}',
    );
    const retry = change(
      flight('HAT217', '2024-05-18'),
      flight('HAT088', '2024-05-26'),
      flight('HAT151', '2024-05-26'),
    );
    expect(agent.check('update_reservation_flights', retry).verdict).toBe('allow');
  });

  it('does not judge an error about a quantity, which another request may satisfy', () => {
    const agent = new Agent();
    agent.call('update_reservation_flights', FIRST, {
      text: 'Error: not enough seats on flight HAT217',
      isError: true,
    });
    const retry = change(
      flight('HAT217', '2024-05-18'),
      flight('HAT088', '2024-05-26'),
      flight('HAT151', '2024-05-26'),
    );
    expect(agent.check('update_reservation_flights', retry).verdict).toBe('allow');
  });

  it('can be turned off', () => {
    const agent = new Agent({ policy: { detectors: { unavailableValue: { enabled: false } } } });
    agent.call('update_reservation_flights', FIRST, UNAVAILABLE);
    const retry = change(
      flight('HAT217', '2024-05-18'),
      flight('HAT088', '2024-05-26'),
      flight('HAT151', '2024-05-26'),
    );
    expect(agent.check('update_reservation_flights', retry).verdict).toBe('allow');
  });
});

describe('unavailable-value: arguments the tool does not take', () => {
  const ZOD_REJECTION = {
    text: ZOD_REJECTION_TEXT,
    isError: true,
  };

  function afterRejection(): Agent {
    const agent = new Agent();
    agent.call('create_issue', issue({ task_progress: '- [ ] File the issue' }), ZOD_REJECTION);
    return agent;
  }

  it('blocks a retry that still passes the rejected argument with another value', () => {
    const check = afterRejection().check(
      'create_issue',
      issue({ task_progress: '- [x] Drafted\n- [ ] File it' }),
    );
    expect(check).toMatchObject({ verdict: 'block', rule: 'unavailable-value' });
    expect(check.suggestion).toContain('without task_progress');
  });

  it('allows the call without the rejected argument', () => {
    expect(afterRejection().check('create_issue', issue({})).verdict).toBe('allow');
  });

  it('allows the rejected argument again once the tool has accepted a call', () => {
    const agent = afterRejection();
    agent.call('create_issue', issue({}), '{"number": 88}');
    expect(agent.check('create_issue', issue({ task_progress: '- [ ] Link the PR' })).verdict).toBe('allow');
  });
});

describe('extendsArguments', () => {
  it('holds for the same arguments with more list items, and not when anything else differs', () => {
    expect(extendsArguments({ a: [1, 2, 3], b: 'x' }, { a: [2, 1], b: 'x' })).toBe(true);
    expect(extendsArguments({ a: [1, 3], b: 'x' }, { a: [2, 1], b: 'x' })).toBe(false);
    expect(extendsArguments({ a: [1, 2], b: 'y' }, { a: [1, 2], b: 'x' })).toBe(false);
    expect(extendsArguments({ a: [1, 2], b: 'x', c: true }, { a: [1, 2], b: 'x' })).toBe(false);
  });

  it('holds for any value against itself and never throws', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 4 }), (a, b) => {
        expect(extendsArguments(a, a)).toBe(true);
        expect(typeof extendsArguments(a, b)).toBe('boolean');
      }),
    );
  });
});
