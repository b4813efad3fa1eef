import { describe, expect, it } from 'vitest';
import { createToolCallAdapter } from '../../src/adapters/tool-call/adapter.js';
import { toolCallToOutcome, toolCallToProposal } from '../../src/adapters/tool-call/index.js';
import { NarrowingEngine } from '../../src/core/loop.js';
import type { CheckResult, ToolAnnotations } from '../../src/core/types.js';
import { ManualClock } from './support.js';

/** A host's flag submission tool, which it declares acts on nothing (it ends no task, writes no file). */
const SUBMIT: ToolAnnotations = { narrowing: { kind: 'other' } } as ToolAnnotations;

/** A guarded agent whose tools carry the kinds its host declares. */
class Agent {
  private readonly clock = new ManualClock();
  private readonly engine = new NarrowingEngine({ adapter: createToolCallAdapter(), clock: this.clock });

  constructor(private readonly annotations: Readonly<Record<string, ToolAnnotations>> = { submit: SUBMIT }) {}

  private proposal(tool: string, args: Record<string, unknown>) {
    const annotations = this.annotations[tool];
    return toolCallToProposal(tool, args, annotations ? { annotations } : {});
  }

  check(tool: string, args: Record<string, unknown>): CheckResult {
    return this.engine.checkProposal(this.proposal(tool, args));
  }

  /** The user wrote to the agent: a new run of the same session begins. */
  userWrote(): void {
    this.engine.newRun('user');
  }

  call(tool: string, args: Record<string, unknown>, text: string): CheckResult {
    this.clock.advance(5);
    const proposal = this.proposal(tool, args);
    const check = this.engine.checkProposal(proposal);
    if (!check.allowed) return check;
    const outcome = toolCallToOutcome(tool, args, { content: [{ type: 'text', text }] });
    this.engine.recordOutcome({ ...outcome, proposal });
    return check;
  }
}

const WRONG = 'Wrong flag!';
const flag = (value: string) => ({ flag: value });

describe('an answer submitted again to a tool declared to act on nothing', () => {
  it('blocks a flag submitted again once the tool refused another flag with the same answer', () => {
    const agent = new Agent();
    agent.call('submit', flag('flag{2WEAK}'), WRONG);
    agent.call('submit', flag('flag{N1BBL3S}'), WRONG);
    expect(agent.check('submit', flag('flag{2WEAK}'))).toMatchObject({
      verdict: 'block',
      rule: 'identical-result',
    });
  });

  it('allows a second submission while the tool has given that answer to no other flag', () => {
    const agent = new Agent();
    agent.call('submit', flag('flag{2WEAK}'), WRONG);
    expect(agent.call('submit', flag('flag{2WEAK}'), WRONG).verdict).toBe('allow');
    expect(agent.check('submit', flag('flag{2WEAK}'))).toMatchObject({ verdict: 'block' });
  });

  it('allows a second submission when the tool answered another flag otherwise', () => {
    const agent = new Agent();
    agent.call('submit', flag('flag{2WEAK}'), WRONG);
    agent.call('submit', flag('flag{N1BBL3S}'), 'Correct flag, but for another challenge.');
    expect(agent.check('submit', flag('flag{2WEAK}')).allowed).toBe(true);
  });

  it("allows a calculation asked again after the user's message, though another gave its value", () => {
    const agent = new Agent({ calculate: SUBMIT });
    const fare = { expression: '(404 + 202 + 148 + 114) * 3 - (126 + 139 + 148 + 114) * 3' };
    agent.call('calculate', { expression: '(404 + 202) * 3 - (126 + 139) * 3' }, '1023.0');
    agent.call('calculate', fare, '1023.0');
    agent.userWrote();
    expect(agent.check('calculate', fare).allowed).toBe(true);
  });

  it('allows it again once a command ran in between', () => {
    const agent = new Agent();
    agent.call('submit', flag('flag{2WEAK}'), WRONG);
    agent.call('submit', flag('flag{2WEAK}'), WRONG);
    agent.call('bash', { command: 'python3 solve.py' }, 'flag{W34K_N1BBL3S}');
    expect(agent.check('submit', flag('flag{2WEAK}')).allowed).toBe(true);
  });

  it('leaves a note to itself that answers nothing alone', () => {
    const agent = new Agent({ think: SUBMIT });
    const first = { thought: 'The key is two nibbles repeated; brute force 256 keys.' };
    const second = { thought: 'Check the certificate amounts add up to $833 before booking.' };
    const third = { thought: 'Use the $500 certificate first, then the gift card.' };
    for (const thought of [first, second, first, third]) agent.call('think', thought, '');
    expect(agent.check('think', first).allowed).toBe(true);
  });
});

describe('the same answers from a tool whose name says nothing of what it does', () => {
  it('leaves its repeats alone: it may talk to a session its calls change', () => {
    const agent = new Agent({});
    const notQuite = 'Not quite... Please try again!\nPlease enter your answer: ';
    for (const answer of ['Solaris', 'VMS', 'Solaris', 'NeXTSTEP'])
      agent.call('connect_sendline', { args: answer }, notQuite);
    expect(agent.check('connect_sendline', { args: 'Solaris' }).allowed).toBe(true);
  });
});
