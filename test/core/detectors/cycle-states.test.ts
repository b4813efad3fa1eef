import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCycleDetector } from '../../../src/core/detectors/cycle.js';
import type { CallContext, ObservedOutcome } from '../../../src/core/detectors/types.js';
import { Agent } from '../support.js';
import { callOf, failed, roundTrip, succeeded, verdicts } from './support.js';

type Step = readonly [CallContext, ObservedOutcome];

const readConfig: Step = [callOf('read_file', { path: 'config.yaml' }), succeeded('port: 8080')];
const readReadme: Step = [
  callOf('read_file', { path: 'README.md' }),
  succeeded('# Service\nRun with npm start.'),
];

/** `git checkout <branch>`: a command whose effects on the files nobody follows. */
function checkout(branch: string): Step {
  return [
    callOf('bash', { command: `git checkout ${branch}` }, { kind: 'exec' }),
    succeeded(`Switched to branch '${branch}'`, { changedWorld: true }),
  ];
}

/** A move of the agent (`go_to`, `goto`): it changes where the next calls look, not the world. */
function navigation(call: CallContext): CallContext {
  return { ...call, facts: { ...call.facts, navigates: true } };
}

/** A household simulator's walk to a closet, which it shows closed each time the agent arrives. */
const goToCloset: Step = [
  navigation(callOf('go_to', { input: 'closet 1' }, { kind: 'read' })),
  succeeded('You arrive at the closet (1). The closet (1) is closed. You see closet (1)'),
];

function testRun(error: string): Step {
  return [
    callOf('bash', { command: 'npm test' }, { kind: 'exec' }),
    failed('test_failure', 'agent_failure', `${error}\nexit code 1`),
  ];
}

/** A text game's round: a move east, a refused `take coin`, a move back west. */
function roomWalk(): Step[] {
  const go = (direction: string, room: string): Step => [
    callOf('go', { input: direction }, { kind: 'mutate' }),
    succeeded(`-= ${room} =-\nYou are in a ${room.toLowerCase()}.`, { changedWorld: true }),
  ];
  const takeCoin: Step = [
    callOf('take', { input: 'coin' }, { kind: 'mutate' }),
    failed('validation_error', 'agent_failure', "You can't see any such thing."),
  ];
  return [go('east', 'Kitchen'), takeCoin, go('west', 'Hallway')];
}

describe('cycles over states', () => {
  it('steers the third round of a cycle that a compaction interrupted, and blocks once two rounds ran since', () => {
    const detector = createCycleDetector();
    verdicts(detector, [readConfig, readReadme, readConfig, readReadme]);
    detector.compacted?.();
    // Going over it once more after the compaction is how the agent gets back what it forgot.
    expect(verdicts(detector, [readConfig, readReadme])).toEqual(['allow', 'allow']);
    const steered = detector.check(readConfig[0]);
    expect([steered?.rule, steered?.severity]).toEqual(['cycle', 'warn']);
    expect(steered?.reason).toContain('before your context was compacted');
    expect(verdicts(detector, [readConfig, readReadme, readConfig])).toEqual(['warn', 'warn', 'block']);
  });

  it('counts everything before a compaction as one round at most', () => {
    const detector = createCycleDetector();
    verdicts(detector, [readConfig, readReadme, readConfig, readReadme, readConfig, readReadme]);
    detector.compacted?.();
    expect(verdicts(detector, [readConfig, readReadme])).toEqual(['allow', 'allow']);
  });

  it('blocks the first call of the third round of a cycle over three branches', () => {
    const detector = createCycleDetector();
    const round = [
      checkout('main'),
      testRun('FAIL test/cart.test.ts > adds up the total: expected 30, received 27'),
      checkout('fix/totals'),
      testRun('FAIL test/cart.test.ts > adds up the total: expected 30, received 33'),
      checkout('fix/rounding'),
      testRun("TypeError: Cannot read properties of undefined (reading 'price')"),
    ];
    expect(verdicts(detector, [...round, ...round])).not.toContain('block');
    expect(detector.check(round[0]?.[0] as CallContext)?.rule).toBe('cycle');
  });

  it('leaves one command that writes a file each time it runs to the rules on repeated calls', () => {
    const detector = createCycleDetector();
    const rewrite: Step = [
      callOf('bash', { command: 'echo "print(42)" > solve.py && python3 solve.py' }, { kind: 'exec' }),
      succeeded('', { changedWorld: true }),
    ];
    expect(
      verdicts(
        detector,
        Array.from({ length: 8 }, () => rewrite),
      ),
    ).not.toContain('block');
  });

  it('counts two alternating error shapes together when their values vary from run to run', () => {
    const detector = createCycleDetector();
    const install = (spec: string, version: string): Step => [
      callOf('bash', { command: `pip install "numpy${spec}"` }, { kind: 'exec' }),
      succeeded(`Successfully installed numpy-${version}`, { changedWorld: true }),
    ];
    const train = (error: string): Step => [
      callOf('bash', { command: 'python train.py' }, { kind: 'exec' }),
      failed('runtime_error', 'agent_failure', error),
    ];
    const older = install('<2', '1.26.4');
    const newer = install('>=2', '2.1.3');
    const steps = [
      older,
      train('[worker 31874] RuntimeError: Numpy is not available'),
      newer,
      train("[worker 31902] AttributeError: module 'numpy' has no attribute 'float'"),
      older,
      train('[worker 32011] RuntimeError: Numpy is not available'),
      newer,
      train("[worker 32047] AttributeError: module 'numpy' has no attribute 'float'"),
    ];
    expect(verdicts(detector, steps)).not.toContain('block');
    expect(detector.check(older[0])?.rule).toBe('cycle');
  });

  it('leaves a walk through rooms alone while every move of it succeeds', () => {
    const detector = createCycleDetector();
    // A text game's moves, each declared a change: every one takes the player to another room.
    const go = (direction: string, room: string): Step => [
      callOf('go', { input: direction }, { kind: 'mutate' }),
      succeeded(
        `-= ${room} =-\nYou are in a ${room.toLowerCase()}. There is an exit to the ${direction === 'east' ? 'west' : 'east'}.`,
        {
          changedWorld: true,
        },
      ),
    ];
    const round = [go('east', 'Kitchen'), go('west', 'Hallway')];
    expect(verdicts(detector, [...round, ...round, ...round, ...round])).not.toContain('block');
  });

  it('leaves a walk of moves and doors opened alone while every step of it succeeds', () => {
    const detector = createCycleDetector();
    // The walk to the closet is a move, not a change of the house; opening it is a change.
    const open: Step = [
      callOf('open', { input: 'closet 1' }, { kind: 'mutate' }),
      succeeded('You open closet. You see closet (1)', { changedWorld: true }),
    ];
    const round = [goToCloset, open];
    expect(verdicts(detector, [...round, ...round, ...round, ...round])).not.toContain('block');
  });

  it('blocks a walk on its third round at the command it runs between its moves, letting the move through', () => {
    const detector = createCycleDetector();
    const look: Step = [
      callOf('Bash', { command: 'python3 check_room.py' }, { kind: 'exec' }),
      succeeded('closet (1): closed'),
    ];
    const round = [goToCloset, look];
    expect(verdicts(detector, [...round, ...round, goToCloset])).not.toContain('block');
    expect(detector.check(look[0])?.rule).toBe('cycle');
  });

  it('lets a household agent walk back to a place it failed at, and blocks the command refused there twice before', () => {
    const detector = createCycleDetector();
    const goTo = (place: string, seen: string): Step => [
      navigation(callOf('go_to', { input: place }, { kind: 'other' })),
      succeeded(seen),
    ];
    const refused = (tool: string, input: string): Step => [
      callOf(tool, { input }, { kind: 'other' }),
      failed('validation_error', 'agent_failure', 'Nothing happens.'),
    ];
    const put = refused('put', 'apple 1 in/on fridge 1');
    const round = [
      goTo('fridge 1', 'The fridge 1 is closed.'),
      put,
      goTo('microwave 1', 'The microwave 1 is closed.'),
      refused('heat', 'apple 1 with microwave 1'),
    ];
    expect(verdicts(detector, [...round, ...round, round[0] as Step])).not.toContain('block');
    expect(detector.check(put[0])?.rule).toBe('cycle');
  });

  it('leaves a walk through rooms alone when a command refused in each room is sent again: moves nothing follows prove no return', () => {
    const detector = createCycleDetector();
    const round = roomWalk();
    expect(verdicts(detector, [...round, ...round, ...round])).not.toContain('block');
  });

  it('still leaves the walk through rooms alone after its two rounds are saved and read back', () => {
    const walked = createCycleDetector();
    const round = roomWalk();
    verdicts(walked, [...round, ...round]);
    const restored = createCycleDetector();
    roundTrip(walked, restored);
    expect(restored.check(round[0]?.[0] as CallContext)?.rule).not.toBe('cycle');
  });

  it('blocks the third round of two edits of a named file, each undoing the other, with a refused command between them', () => {
    const detector = createCycleDetector();
    const edit = (from: string, to: string): Step => [
      callOf(
        'str_replace_editor',
        { command: 'str_replace', path: 'src/cart.ts', old_str: from, new_str: to },
        { kind: 'mutate', targets: ['src/cart.ts'] },
      ),
      succeeded('The file src/cart.ts has been edited.', { changedWorld: true }),
    ];
    const build: Step = [
      callOf('run_build', {}, { kind: 'exec' }),
      failed(
        'type_error',
        'agent_failure',
        "src/cart.ts(14,5): error TS2322: Type 'string' is not assignable to type 'number'.",
      ),
    ];
    const a = 'total += item.price';
    const b = 'total += Number(item.price)';
    const round = [edit(a, b), build, edit(b, a)];
    expect(verdicts(detector, [...round, ...round])).not.toContain('block');
    expect(detector.check(round[0]?.[0] as CallContext)?.rule).toBe('cycle');
  });

  it('blocks the failing edit of an open, goto and edit going round the same lines, on its third round', () => {
    const agent = new Agent();
    const path = 'django/db/models/sql/compiler.py';
    const view = (first: number) =>
      `[File: /django__django/${path} (1525 lines total)]\n(${first - 1} more lines above)\n` +
      `${first}:        having_group_by = self.having.get_group_by_cols() if self.having else ()\n` +
      `${first + 1}:        for expr in having_group_by:\n`;
    const editError = {
      isError: true,
      text:
        'Your proposed edit has introduced new syntax error(s). Please understand the fixes and retry your edit command.\n' +
        'ERRORS:\n- E999 IndentationError: unexpected indent\n' +
        'This is how your edit would have looked if applied\n-------------------------------------------------\n' +
        '[File: /django__django/django/db/models/sql/compiler.py (1525 lines total)]\n(118 more lines above)\n' +
        '119:         having_group_by = self.having.get_group_by_cols()\n',
    };
    const edit = {
      lines: '119:120',
      replacement: '         having_group_by = self.having.get_group_by_cols()',
    };
    const round = () => [
      agent.call('open', { path, line_number: '134' }, view(119)).check.verdict,
      agent.call('goto', { line_number: '470' }, view(455)).check.verdict,
      agent.call('edit', edit, editError).check.verdict,
    ];
    expect([...round(), ...round()]).not.toContain('block');
    agent.call('open', { path, line_number: '134' }, view(119));
    agent.call('goto', { line_number: '470' }, view(455));
    const third = agent.call('edit', edit, editError).check;
    expect([third.verdict, third.rule]).toEqual(['block', 'cycle']);
  });

  describe('edits of the open file that keep its line numbers', () => {
    const updated = '[File: /repo/calc.py (30 lines total)]\n(Open file: /repo/calc.py)\nFile updated.';
    const pytest = { command: 'python -m pytest tests/test_calc.py -q' };
    const failing = (test: string, assertion: string) => ({
      isError: true,
      text: `F.\nFAILED tests/test_calc.py::${test} - ${assertion}\n1 failed, 1 passed in 0.02s`,
    });
    /** SWE-agent's `edit 10:10`, undone and redone, a test run after each. */
    const undoRedo = (agent: Agent, first: string, second: string) => [
      agent.call('edit', { lines: '10:10', replacement: first }, updated).check.verdict,
      agent.call('bash', pytest, failing('test_add', 'assert 5 == 6')).check.verdict,
      agent.call('edit', { lines: '10:10', replacement: second }, updated).check.verdict,
      agent.call('bash', pytest, failing('test_sub', 'assert 1 == 0')).check.verdict,
    ];

    it('blocks undoing and redoing one edit with the same failing tests when the third round starts', () => {
      const agent = new Agent();
      const round = () => undoRedo(agent, '    return a + b', '    return a + b + 1');
      expect([...round(), ...round()]).not.toContain('block');
      const third = agent.check('edit', { lines: '10:10', replacement: '    return a + b' });
      expect([third.verdict, third.rule]).toEqual(['block', 'cycle']);
    });

    it('leaves the rounds alone when an edit in them gives more lines than it replaces, moving what the next edits', () => {
      const agent = new Agent();
      const round = () => undoRedo(agent, '    total = a + b\n    return total', '    return a + b + 1');
      expect([...round(), ...round(), ...round()]).not.toContain('block');
    });

    it('keeps the kind of each edit through a snapshot and restore', () => {
      const restoredAfter = (first: string, second: string) => {
        const agent = new Agent();
        undoRedo(agent, first, second);
        undoRedo(agent, first, second);
        const restored = new Agent();
        restored.loop.restore(agent.loop.snapshot());
        return restored.check('edit', { lines: '10:10', replacement: first }).verdict;
      };
      expect(restoredAfter('    return a + b', '    return a + b + 1')).toBe('block');
      expect(restoredAfter('    total = a + b\n    return total', '    return a + b + 1')).toBe('allow');
    });
  });

  it('leaves an agent going back and forth between two places of the open file alone', () => {
    const agent = new Agent();
    const path = 'django/db/models/sql/compiler.py';
    const verdictsSeen: string[] = [];
    for (let round = 0; round < 4; round++) {
      verdictsSeen.push(
        agent.call('open', { path, line_number: '134' }, `[File: ${path}]\n119: having_group_by = ()`).check
          .verdict,
        agent.call('goto', { line_number: '470' }, `[File: ${path}]\n455: continue`).check.verdict,
      );
    }
    expect(verdictsSeen).not.toContain('block');
  });

  it('keeps the rounds it counted before a compaction through a snapshot and restore', () => {
    const first = createCycleDetector();
    verdicts(first, [readConfig, readReadme, readConfig, readReadme]);
    first.compacted?.();
    verdicts(first, [readConfig, readReadme]);
    const second = createCycleDetector();
    roundTrip(first, second);
    expect(second.check(readConfig[0])?.severity).toBe('warn');
    const before = createCycleDetector();
    verdicts(before, [readConfig, readReadme, readConfig, readReadme]);
    before.compacted?.();
    const restored = createCycleDetector();
    roundTrip(before, restored);
    expect(restored.check(readConfig[0])).toBeUndefined();
  });

  it('reads back any saved steps and workspace states, however damaged, without throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (steps, world) => {
        const detector = createCycleDetector();
        detector.restore({
          version: 2,
          history: steps,
          compactions: world,
          'state-cycle': { world, failed: steps, moves: world, place: steps },
        });
        detector.restore({
          version: 2,
          history: [steps, world],
          'state-cycle': { world: { files: steps, steps: world } },
        });
        expect(() => verdicts(detector, [readConfig, readReadme, readConfig])).not.toThrow();
      }),
    );
  });
});
