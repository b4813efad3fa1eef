import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { createIdenticalResultDetector } from '../../src/core/detectors/index.js';
import { Agent, type ToolResult } from './support.js';

type Step = readonly [tool: string, args: Record<string, unknown>, result: ToolResult];

/** A new guard holding what `agent` saved, as a new process reads it back from a store. */
function restarted(agent: Agent): Agent {
  const next = new Agent();
  next.loop.restore(JSON.parse(JSON.stringify(agent.loop.snapshot())));
  return next;
}

/** The verdict of each step, and of `last` checked after them, in one process. */
function inOneProcess(steps: readonly Step[], last: Step): string[] {
  const agent = new Agent();
  const seen = steps.map(([tool, args, result]) => agent.call(tool, args, result).check.verdict);
  return [...seen, agent.check(last[0], last[1]).verdict];
}

/** The same, each step in a process of its own that reads what the one before it saved. */
function processPerStep(steps: readonly Step[], last: Step): string[] {
  let agent = new Agent();
  const seen: string[] = [];
  for (const [tool, args, result] of steps) {
    seen.push(agent.call(tool, args, result).check.verdict);
    agent = restarted(agent);
  }
  return [...seen, agent.check(last[0], last[1]).verdict];
}

const refused = (text: string) => ({ text, isError: true });

const SOLVE: Step = [
  'bash',
  { command: 'python3 solve.py' },
  "Trying n = 1\nError with n=1, key=flag{: can't concat str to bytes\nTrying n = 2\nNo key found",
];

const LOOK: Step = [
  'look',
  {},
  "-= Cubicle =-\nYou've entered a cubicle.\n\nThere is a closed hatch leading north.",
];

const LISTING = 'encrypt.py\npublic-key.txt\nshark2.pcapng\n';
const KEY = 'n1: 1519249205981417557494105524889126882216253352\ne: 65537\n';
const SCRIPT = "#!/usr/bin/env python3\n\nwith open('flag.txt', 'rb') as f:\n    flag = f.read()\n";

describe('identical-result across processes, each event in a process of its own', () => {
  it('blocks the third run of a script that answered alike, other calls in between', () => {
    const steps: Step[] = [
      SOLVE,
      ['bash', { command: 'cat solve.py' }, 'for n in range(1, 3):\n    try_key(n)\n'],
      SOLVE,
      ['bash', { command: 'cat output.txt' }, 'ciphertext: 7b2a\n'],
    ];
    expect(inOneProcess(steps, SOLVE).at(-1)).toBe('block');
    expect(processPerStep(steps, SOLVE)).toEqual(inOneProcess(steps, SOLVE));
  });

  it('blocks the third ask of a state query while every call in between failed', () => {
    const steps: Step[] = [
      LOOK,
      ['go', { input: 'north' }, refused('You have to open the hatch first.')],
      LOOK,
      ['open', { input: 'hatch' }, refused('The hatch is locked.')],
    ];
    expect(inOneProcess(steps, LOOK).at(-1)).toBe('block');
    expect(processPerStep(steps, LOOK)).toEqual(inOneProcess(steps, LOOK));
  });

  it('blocks the third file read again in a row, each having come back as before', () => {
    const steps: Step[] = [
      ['bash', { command: 'ls' }, LISTING],
      ['bash', { command: 'cat public-key.txt' }, KEY],
      ['bash', { command: 'cat encrypt.py' }, SCRIPT],
      ['bash', { command: 'cat encrypt.txt' }, refused('cat: encrypt.txt: No such file or directory\n')],
      ['bash', { command: 'ls' }, LISTING],
      ['bash', { command: 'cat public-key.txt' }, KEY],
    ];
    const last: Step = ['bash', { command: 'cat encrypt.py' }, SCRIPT];
    expect(inOneProcess(steps, last).at(-1)).toBe('block');
    expect(processPerStep(steps, last)).toEqual(inOneProcess(steps, last));
  });

  it('still lets the script run again after a command that may have changed its files', () => {
    const steps: Step[] = [
      SOLVE,
      ['bash', { command: 'cat solve.py' }, 'for n in range(1, 3):\n    try_key(n)\n'],
      SOLVE,
      ['bash', { command: "sed -i 's/3/5/' solve.py" }, ''],
    ];
    expect(processPerStep(steps, SOLVE).at(-1)).toBe('allow');
  });

  it('saves the calls it counts by their keys and answers by their digests, never in clear', () => {
    const policy = { tools: { submit: { kind: 'other' as const } } };
    const agent = new Agent({ policy });
    agent.call('submit', { flag: 'flag{s3cr3t_attempt}' }, 'Wrong flag!');
    agent.call('submit', { flag: 'flag{other_attempt}' }, 'Wrong flag!');
    agent.call(...SOLVE);
    const saved = JSON.stringify(agent.loop.sessionSnapshot().detectors['identical-result']);
    for (const value of ['s3cr3t_attempt', 'other_attempt', 'python3 solve.py'])
      expect(saved).not.toContain(value);
  });

  it('opens a snapshot saved before the counts of successes and things done were kept', () => {
    const agent = new Agent();
    agent.call(...SOLVE);
    const saved = agent.loop.sessionSnapshot().detectors['identical-result'] as Record<string, unknown>;
    const old = {
      version: 1,
      world: saved.world,
      proposed: saved.proposed,
      reruns: saved.reruns,
      calls: saved.calls,
    };
    const detector = createIdenticalResultDetector();
    detector.restore(old);
    expect((detector.snapshot() as { calls: unknown[] }).calls).toHaveLength(1);
  });

  it('ignores a hostile or corrupt snapshot, and never throws reading one or checking after it', () => {
    const agent = new Agent();
    for (const step of [SOLVE, LOOK, SOLVE]) agent.call(...step);
    const valid = agent.loop.sessionSnapshot().detectors['identical-result'] as Record<string, unknown>;
    const proposal = toolCallToProposal(SOLVE[0], SOLVE[1]);
    const hostile = fc.oneof(
      fc.anything(),
      fc.record({
        version: fc.constant(2),
        world: fc.anything(),
        successes: fc.anything(),
        doings: fc.anything(),
        calls: fc.constant(valid.calls),
        answeredTo: fc.anything(),
        lastAnswers: fc.anything(),
        rerun: fc.anything(),
      }),
      fc.record({
        version: fc.constant(2),
        world: fc.constant(valid.world),
        successes: fc.oneof(fc.integer(), fc.double()),
        doings: fc.oneof(fc.integer(), fc.double()),
        calls: fc.array(fc.tuple(fc.string(), fc.dictionary(fc.string(), fc.jsonValue()))),
        answeredTo: fc.array(fc.tuple(fc.string(), fc.jsonValue())),
        lastAnswers: fc.array(fc.tuple(fc.jsonValue(), fc.string())),
        rerun: fc.record({ tool: fc.jsonValue(), key: fc.jsonValue(), firstAsks: fc.jsonValue() }),
      }),
    );
    fc.assert(
      fc.property(hostile, (state) => {
        const guard = agent.restoredWith('identical-result', state);
        expect(['allow', 'block', 'warn']).toContain(guard.loop.checkProposal(proposal).verdict);
      }),
      { numRuns: 150 },
    );
  });
});
