import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckResult, Outcome, Proposal, VerdictKind } from '../../src/core/types.js';
import { REPLAY_EPOCH_MS, TraceClock, UNTIMED_STEP_MS } from '../../src/replay/clock.js';
import { stepJson } from '../../src/replay/format.js';
import { type ReplayGuard, replayTrace, TraceReplayer } from '../../src/replay/replay.js';
import { parseTrace, type TraceEvent } from '../../src/trace/index.js';

/** A guard that answers from a script and writes down what the replayer asked of it. */
class ScriptedGuard implements ReplayGuard {
  readonly log: string[] = [];
  readonly checkedAt: number[] = [];
  readonly proposals: Proposal[] = [];

  constructor(
    private readonly verdicts: Record<string, VerdictKind>,
    private readonly clock?: TraceClock,
  ) {}

  check(proposal: Proposal): CheckResult {
    this.proposals.push(proposal);
    if (this.clock) this.checkedAt.push(this.clock.now());
    const key = String(proposal.args.path ?? proposal.tool);
    const verdict = this.verdicts[key] ?? 'allow';
    this.log.push(`check ${key} → ${verdict}`);
    const decided = verdict === 'allow' ? {} : { rule: 'scripted', reason: `${key} is ${verdict}ed` };
    return {
      allowed: verdict === 'allow' || verdict === 'warn',
      verdict,
      violations: [],
      ...decided,
      activeConstraints: 0,
      radiusLimit: Number.POSITIVE_INFINITY,
      searchSpaceReduction: 0,
    };
  }

  record(outcome: Outcome): void {
    this.log.push(
      `record ${String(outcome.proposal.args.path ?? outcome.proposal.tool)} ${outcome.success ? 'ok' : 'failed'}`,
    );
  }

  resetSession(sessionId?: string): void {
    this.log.push(`session ${sessionId}`);
  }

  newRun(reason: 'user' | 'compact'): void {
    this.log.push(`run ${reason}`);
  }
}

const read = (path: string, extra: Record<string, unknown> = {}): TraceEvent =>
  ({
    type: 'call',
    tool: 'read_file',
    args: { path },
    result: { content: `contents of ${path}` },
    ...extra,
  }) as TraceEvent;

function replayWith(guard: ScriptedGuard, events: TraceEvent[], clock = new TraceClock()) {
  const replayer = new TraceReplayer(guard, clock);
  const steps = events.flatMap((event) => replayer.feed(event));
  steps.push(...replayer.finish());
  return { steps, summary: replayer.summary };
}

describe('TraceReplayer', () => {
  it('lists the fields of a step in one order: step, tool, returned, agent, verdict, rule, reason', () => {
    const guard = new ScriptedGuard({ 'b.ts': 'block', 'c.ts': 'halt' });
    const { steps } = replayWith(guard, [
      read('a.ts'),
      read('b.ts', { agent: 'explorer' }),
      read('c.ts'),
      read('d.ts'),
    ]);
    expect(steps.map((step) => Object.keys(step).join(' '))).toEqual([
      'step tool returned verdict',
      'step tool returned agent verdict rule reason',
      'step tool returned verdict rule reason',
      'step tool returned verdict rule reason',
    ]);
  });

  it('records the outcome of an allowed call', () => {
    const guard = new ScriptedGuard({});
    replayWith(guard, [read('a.ts')]);
    expect(guard.log).toEqual(['check a.ts → allow', 'record a.ts ok']);
  });

  it('records the outcome of a warned call', () => {
    const guard = new ScriptedGuard({ 'a.ts': 'warn' });
    replayWith(guard, [read('a.ts')]);
    expect(guard.log).toEqual(['check a.ts → warn', 'record a.ts ok']);
  });

  it('ignores the recorded result of a blocked call', () => {
    const guard = new ScriptedGuard({ 'a.ts': 'block' });
    const { steps } = replayWith(guard, [read('a.ts')]);
    expect(guard.log).toEqual(['check a.ts → block']);
    expect(steps).toEqual([
      {
        step: 1,
        tool: 'read_file',
        verdict: 'block',
        rule: 'scripted',
        reason: 'a.ts is blocked',
        returned: 'contents of a.ts',
      },
    ]);
  });

  it('records nothing for a call that has no recorded result', () => {
    const guard = new ScriptedGuard({});
    replayWith(guard, [{ type: 'call', tool: 'rm', args: { path: 'dist' } }]);
    expect(guard.log).toEqual(['check dist → allow']);
  });

  it('halts every later call of the run without asking the guard', () => {
    const guard = new ScriptedGuard({ 'b.ts': 'halt' });
    const { steps } = replayWith(guard, [
      read('a.ts'),
      read('b.ts'),
      read('c.ts'),
      { type: 'compact' },
      read('d.ts'),
    ]);
    expect(steps.map((step) => step.verdict)).toEqual(['allow', 'halt', 'halt', 'halt']);
    expect(steps[2]).toMatchObject({
      rule: 'scripted',
      reason: 'The run was halted at step 2: b.ts is halted',
    });
    expect(guard.log.filter((entry) => entry.startsWith('check'))).toEqual([
      'check a.ts → allow',
      'check b.ts → halt',
    ]);
  });

  it('ends a halt at a new user message', () => {
    const guard = new ScriptedGuard({ 'b.ts': 'halt' });
    const { steps } = replayWith(guard, [
      read('b.ts'),
      read('c.ts'),
      { type: 'user', text: 'try again' },
      read('c.ts'),
    ]);
    expect(steps.map((step) => step.verdict)).toEqual(['halt', 'halt', 'allow']);
  });

  it('ends a halt at a new session', () => {
    const guard = new ScriptedGuard({ 'b.ts': 'halt' });
    const { steps } = replayWith(guard, [read('b.ts'), { type: 'session', id: 's2' }, read('c.ts')]);
    expect(steps.map((step) => step.verdict)).toEqual(['halt', 'allow']);
  });

  it('passes session, user and compact events to the guard', () => {
    const guard = new ScriptedGuard({});
    replayWith(guard, [{ type: 'session', id: 'agent-7' }, { type: 'user' }, { type: 'compact' }]);
    expect(guard.log).toEqual(['session agent-7', 'run user', 'run compact']);
  });

  it('numbers sessions that have no id instead of letting the guard invent one', () => {
    const guard = new ScriptedGuard({});
    replayWith(guard, [{ type: 'session' }, { type: 'session' }]);
    expect(guard.log).toEqual(['session session-1', 'session session-2']);
  });

  it('counts steps across sessions and summarises the verdicts', () => {
    const guard = new ScriptedGuard({ 'b.ts': 'block', 'c.ts': 'warn' });
    const { steps, summary } = replayWith(guard, [
      read('a.ts'),
      { type: 'session' },
      read('b.ts'),
      read('c.ts'),
    ]);
    expect(steps.map((step) => step.step)).toEqual([1, 2, 3]);
    expect(summary).toEqual({ calls: 3, allow: 1, warn: 1, block: 1, halt: 0 });
  });

  it('checks every call of a turn before recording any of their results', () => {
    const guard = new ScriptedGuard({});
    replayWith(guard, [read('a.ts', { turn: 'm1' }), read('b.ts', { turn: 'm1' }), read('c.ts')]);
    expect(guard.log).toEqual([
      'check a.ts → allow',
      'check b.ts → allow',
      'record a.ts ok',
      'record b.ts ok',
      'check c.ts → allow',
      'record c.ts ok',
    ]);
  });

  it('gives the guard the annotations, schema, turn and id of a call', () => {
    const guard = new ScriptedGuard({});
    const schema = { type: 'object', properties: { path: { type: 'string' } } };
    replayWith(guard, [
      {
        type: 'meta',
        tools: [{ name: 'read_file', annotations: { readOnlyHint: true }, inputSchema: schema }],
      },
      read('a.ts', { turn: '4', id: 'call_9' }),
    ]);
    expect(guard.proposals[0]).toEqual({
      tool: 'read_file',
      args: { path: 'a.ts' },
      annotations: { readOnlyHint: true },
      inputSchema: schema,
      step: '4',
      callId: 'call_9',
    });
  });
});

/**
 * What replaying `events` asks of a guard that answers `verdicts` per path, worked out call by call
 * the plain way: every call joins a turn (a call of no turn a turn of its own), and a turn, when it
 * ends, checks each call (a halted run answers for the guard; a call marked coalesced is not
 * checked), then records the results of the calls that ran.
 */
function modelReplay(events: readonly TraceEvent[], verdicts: Record<string, VerdictKind>) {
  const log: string[] = [];
  const steps: Array<{ step: number; verdict: string }> = [];
  let turn: Array<TraceEvent & { type: 'call' }> = [];
  let halted = false;
  const flush = () => {
    const ran: Array<TraceEvent & { type: 'call' }> = [];
    for (const call of turn) {
      const path = String(call.args.path);
      let verdict: string;
      if (call.coalesced) verdict = 'coalesced';
      else if (halted) verdict = 'halt';
      else {
        verdict = verdicts[path] ?? 'allow';
        log.push(`check ${path} → ${verdict}`);
        if (verdict === 'halt') halted = true;
      }
      steps.push({ step: steps.length + 1, verdict });
      if ((verdict === 'allow' || verdict === 'warn') && call.result) ran.push(call);
    }
    for (const call of ran) log.push(`record ${String(call.args.path)} ok`);
    turn = [];
  };
  for (const event of events) {
    if (event.type === 'call') {
      if (turn.length > 0 && (event.turn === undefined || event.turn !== turn[0]?.turn)) flush();
      turn.push(event);
      if (event.turn === undefined) flush();
      continue;
    }
    flush();
    if (event.type === 'session') {
      halted = false;
      log.push(`session ${event.id}`);
    } else if (event.type === 'user') {
      halted = false;
      log.push('run user');
    } else if (event.type === 'compact') log.push('run compact');
  }
  flush();
  return { log, steps };
}

describe('turns', () => {
  it('replays calls alone and in turns as checking each turn whole, then recording what ran, would', () => {
    const event = fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          turn: fc.option(fc.constantFrom('m1', 'm2', 'm3'), { nil: undefined }),
          result: fc.boolean(),
          // One call in five marked answered by a twin the trace does not hold.
          coalesced: fc.integer({ min: 0, max: 4 }).map((draw) => draw === 0),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom<TraceEvent>(
          { type: 'session', id: 's' },
          { type: 'user' },
          { type: 'compact' },
        ),
      },
    );
    const verdict = fc.constantFrom<VerdictKind>('allow', 'allow', 'warn', 'block', 'halt');
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 40 }),
        fc.array(verdict, { minLength: 40, maxLength: 40 }),
        (drawn, answers) => {
          // Every call reads a path of its own: no two calls of a turn are twins.
          const events = drawn.map((entry, index): TraceEvent => {
            if ('type' in entry) return entry;
            const call: Record<string, unknown> = {
              type: 'call',
              tool: 'read_file',
              args: { path: `f${index}.ts` },
            };
            if (entry.result) call.result = { content: `contents of f${index}.ts` };
            if (entry.turn !== undefined) call.turn = entry.turn;
            if (entry.coalesced) call.coalesced = true;
            return call as unknown as TraceEvent;
          });
          const verdicts = Object.fromEntries(answers.map((answer, index) => [`f${index}.ts`, answer]));
          const guard = new ScriptedGuard(verdicts);
          const { steps } = replayWith(guard, events);
          const model = modelReplay(events, verdicts);
          expect(guard.log).toEqual(model.log);
          expect(steps.map(({ step, verdict }) => ({ step, verdict }))).toEqual(model.steps);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('trace time', () => {
  it('follows t, in seconds since the start', () => {
    const clock = new TraceClock();
    const guard = new ScriptedGuard({}, clock);
    replayWith(guard, [read('a.ts', { t: 0 }), read('b.ts', { t: 2.5 }), read('c.ts', { t: 60 })], clock);
    expect(guard.checkedAt.map((at) => at - REPLAY_EPOCH_MS)).toEqual([0, 2500, 60_000]);
  });

  it('moves a fixed step for calls without t', () => {
    const clock = new TraceClock();
    const guard = new ScriptedGuard({}, clock);
    replayWith(guard, [read('a.ts'), read('b.ts', { t: 10 }), read('c.ts')], clock);
    expect(guard.checkedAt.map((at) => at - REPLAY_EPOCH_MS)).toEqual([0, 10_000, 10_000 + UNTIMED_STEP_MS]);
  });

  it('never runs backwards', () => {
    const clock = new TraceClock();
    const guard = new ScriptedGuard({}, clock);
    replayWith(guard, [read('a.ts', { t: 30 }), read('b.ts', { t: 12 })], clock);
    expect(guard.checkedAt.map((at) => at - REPLAY_EPOCH_MS)).toEqual([30_000, 30_000]);
  });
});

describe('replayTrace with the engine', () => {
  const fixture = new URL('../fixtures/traces/loop-kilo-code-reread-same-file.jsonl', import.meta.url);

  it('gives byte-identical output on every run', () => {
    const render = () => {
      const events = parseTrace(readFileSync(fixture, 'utf8'));
      return replayTrace(events).steps.map(stepJson).join('\n');
    };
    expect(render()).toBe(render());
  });

  it('blocks nothing under the off preset', async () => {
    const { parsePolicy } = await import('../../src/policy-file/index.js');
    const events = parseTrace(readFileSync(fixture, 'utf8'));
    const { summary } = replayTrace(events, { policy: parsePolicy({ preset: 'off' }) });
    expect(summary).toMatchObject({ calls: 40, block: 0, halt: 0 });
  });

  it('never halts for refusals the recorded agent did not see, and judges its next approach on its own', () => {
    const failedEdit: TraceEvent = {
      type: 'call',
      tool: 'str_replace_based_edit_tool',
      args: { command: 'str_replace', path: 'src/app.py', old_str: 'def run(:', new_str: 'def run():' },
      result: {
        isError: true,
        content: 'No replacement was performed, old_str `def run(:` did not appear verbatim in src/app.py.',
      },
    } as TraceEvent;
    const view: TraceEvent = {
      type: 'call',
      tool: 'str_replace_based_edit_tool',
      args: { command: 'view', path: 'src/app.py' },
      result: { content: '1\tdef run():\n2\t    return 0\n' },
    } as TraceEvent;
    const { steps } = replayTrace([failedEdit, failedEdit, failedEdit, failedEdit, failedEdit, view]);
    expect(steps.map((step) => step.verdict)).toEqual(['allow', 'block', 'block', 'block', 'block', 'allow']);
  });
});

describe('answers the host took out of the context', () => {
  const readFile = (index: number, id?: string): TraceEvent =>
    ({
      type: 'call',
      tool: 'read_file',
      args: { file_path: `src/hooks/use${index}.js` },
      result: { content: `export function use${index}() {\n  return useState(null);\n}\n` },
      ...(id !== undefined && { id }),
    }) as TraceEvent;
  const files = [0, 1, 2, 3, 4, 5];
  const firstReads = files.map((index) => readFile(index, `read_file-${index}`));
  const verdictsOfSecondReads = (between: TraceEvent[]) =>
    replayTrace([...firstReads, ...between, ...files.map((index) => readFile(index))])
      .steps.slice(files.length)
      .map((step) => step.verdict);

  it('allows reading again the files whose answers the host hid, and keeps judging the ones it did not', () => {
    const hidden: TraceEvent = { type: 'compact', calls: ['read_file-0', 'read_file-1', 'read_file-2'] };
    const verdicts = verdictsOfSecondReads([hidden]);
    expect(verdicts.slice(0, 3)).toEqual(['allow', 'allow', 'allow']);
    expect(verdicts.slice(3)).toContain('block');
  });

  it('judges reads repeated with nothing hidden as before', () => {
    const unknown: TraceEvent = { type: 'compact', calls: ['read_file-99'] };
    expect(verdictsOfSecondReads([unknown])).toEqual(verdictsOfSecondReads([]));
    expect(verdictsOfSecondReads([])).toContain('block');
  });

  it('hands the guard the calls a compaction names, and starts no new run', () => {
    const hidden: Proposal[][] = [];
    const guard = Object.assign(new ScriptedGuard({}), {
      answersHidden: (calls: readonly Proposal[]) => hidden.push([...calls]),
    });
    replayWith(guard, [
      read('a.ts', { id: 'c1' }),
      read('b.ts', { id: 'c2' }),
      { type: 'compact', calls: ['c2'] },
    ]);
    expect(hidden).toEqual([[{ tool: 'read_file', args: { path: 'b.ts' }, callId: 'c2' }]]);
    expect(guard.log).not.toContain('run compact');
  });
});

describe('replaying subagents', () => {
  const tools: TraceEvent = {
    type: 'meta',
    tools: [
      { name: 'Read', annotations: { readOnlyHint: true, narrowing: { kind: 'read' } } },
      { name: 'Grep', annotations: { readOnlyHint: true, narrowing: { kind: 'search' } } },
    ],
  };
  const noMatches = (t: number, agent?: string): TraceEvent =>
    ({
      type: 'call',
      tool: 'Grep',
      args: { pattern: 'shippingTax', path: 'src' },
      result: { content: 'No matches found' },
      t,
      ...(agent ? { agent } : {}),
    }) as TraceEvent;
  const verdicts = (events: TraceEvent[]) =>
    replayTrace([tools, { type: 'session', id: 's1' }, ...events]).steps.map(
      (step) => `${step.agent ?? 'agent'} ${step.verdict}`,
    );

  it("keeps a subagent's streak apart from the agent's", () => {
    const calls = [
      noMatches(1),
      noMatches(2, 'a4f19c2'),
      noMatches(3),
      noMatches(4, 'a4f19c2'),
      noMatches(5),
    ];
    expect(verdicts(calls)).toEqual([
      'agent allow',
      'a4f19c2 allow',
      'agent allow',
      'a4f19c2 allow',
      'agent block',
    ]);
    const unmarked = calls.map((call) => ({ ...call, agent: undefined }) as TraceEvent);
    expect(verdicts(unmarked)[2]).toBe('agent block');
  });

  it('blocks the agent on what its subagent learned', () => {
    const missing = (t: number, agent?: string): TraceEvent =>
      ({
        type: 'call',
        tool: 'Read',
        args: { file_path: '/home/dev/shop/src/checkout/shipping.ts' },
        result: {
          isError: true,
          content:
            '<tool_use_error>File does not exist. Current working directory: /home/dev/shop</tool_use_error>',
        },
        t,
        ...(agent ? { agent } : {}),
      }) as TraceEvent;
    expect(verdicts([missing(1, 'a4f19c2'), missing(2)])).toEqual(['a4f19c2 allow', 'agent block']);
  });

  it("names the subagent in a subagent's step", () => {
    const [step] = replayTrace([tools, noMatches(1, 'a4f19c2')]).steps;
    expect(step && JSON.parse(stepJson(step))).toEqual({
      step: 1,
      tool: 'Grep',
      agent: 'a4f19c2',
      verdict: 'allow',
      returned: 'No matches found',
    });
  });
});
