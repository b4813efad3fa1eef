/**
 * Judges a replay's blocks against what the recorded run really did. A call is wasted when, as it
 * really ran, (1) an earlier call with the same tool and arguments returned the same result
 * (volatile values aside) or failed the same way, and nothing that changes anything ran in between;
 * or (2) it failed, and an earlier call of the same tool (not a shell) on the same target failed with
 * the same error signature, with no successful change in between. A block of a wasted call is
 * justified; a block of any other call stopped new work.
 */
import { createToolCallAdapter } from '../adapters/tool-call/index.js';
import { digestResult, identifyCall, withoutFreeText } from '../core/identity/index.js';
import type { DomainAdapter } from '../core/types.js';
import { WorldTracker } from '../core/world.js';
import type { TraceEvent } from '../trace/types.js';
import { recordedCalls } from './recorded-calls.js';
import type { ReplayStep } from './replay.js';

export interface Judgement {
  readonly blocks: number;
  /** Blocks of calls that then repeated a failure or a result with nothing changed. */
  readonly justified: number;
  /** Blocks of calls that did something new. */
  readonly false: number;
  /** Steps of the false blocks. */
  readonly falseSteps: readonly number[];
  /**
   * With disputes read as labels: the false blocks a person disputed (`feedback --wrong`), counted
   * false whatever the recorded run did next.
   */
  readonly disputed?: number;
  readonly disputedSteps?: readonly number[];
}

interface Ran {
  readonly digest: string;
  readonly failed: boolean;
  readonly signature: string | undefined;
  /** The count of changes before it ran. */
  readonly changes: number;
  /** What it depends on: its targets; none means anything. */
  readonly targets: readonly string[];
}

/**
 * Changes, counted, with the count at each target's last change. A change that names no target (a
 * command) may have changed anything.
 */
class Changes {
  count = 0;
  private anything = 0;
  private readonly at = new Map<string, number>();

  note(targets: readonly string[], anything: boolean): void {
    this.count++;
    if (anything || targets.length === 0) this.anything = this.count;
    for (const target of targets) {
      this.at.set(target, this.count);
      for (let end = target.lastIndexOf('/'); end > 0; end = target.lastIndexOf('/', end - 1))
        this.at.set(target.slice(0, end), this.count);
    }
  }

  /** Whether nothing `ran` depends on has changed since it ran. */
  noneSince(ran: Ran): boolean {
    if (ran.changes === this.count) return true;
    if (this.anything > ran.changes || ran.targets.length === 0) return false;
    return ran.targets.every((target) => (this.at.get(target) ?? 0) <= ran.changes);
  }
}

/** The steps (numbered as replay numbers them) that were wasted in the recorded run. */
export function wastedSteps(
  events: Iterable<TraceEvent>,
  adapter: DomainAdapter = createToolCallAdapter(),
): Set<number> {
  const world = new WorldTracker();
  const byCall = new Map<string, Ran>();
  const byTarget = new Map<string, Ran>();
  const wasted = new Set<number>();
  const changes = new Changes();
  for (const { step, proposal, facts, outcome, failure, text } of recordedCalls(events, adapter)) {
    const failed = !outcome.success;
    const ran: Ran = {
      digest: digestResult(text),
      failed,
      signature: failure?.signature,
      changes: changes.count,
      targets: facts.targets,
    };
    // A retry reworded in its free text (a command's description) is the same call.
    const { callKey } = identifyCall(proposal.tool, withoutFreeText(proposal));
    const earlier = byCall.get(callKey);
    const repeated =
      earlier !== undefined &&
      changes.noneSince(earlier) &&
      earlier.failed === failed &&
      (failed ? earlier.signature === ran.signature : earlier.digest === ran.digest);
    const targetKey =
      facts.targets.length > 0 ? `${proposal.tool}\u0000${facts.targets.join('\u0000')}` : undefined;
    const earlierFailure = targetKey === undefined ? undefined : byTarget.get(targetKey);
    const sameFailure =
      failed &&
      facts.kind !== 'exec' &&
      earlierFailure !== undefined &&
      changes.noneSince(earlierFailure) &&
      earlierFailure.signature === ran.signature;
    if (repeated || sameFailure) wasted.add(step);
    byCall.set(callKey, ran);
    if (failed && targetKey !== undefined) byTarget.set(targetKey, ran);
    const effect = failed ? undefined : world.effectOf(facts, callKey, ran.digest);
    if (effect !== undefined && effect.kind !== 'none')
      changes.note(facts.targets, effect.kind === 'unknown');
  }
  return wasted;
}

/**
 * How many of the replay's blocks stopped a wasted call, and how many stopped new work. With
 * `disputed` (steps a person said were wrongly refused), a block of one of them is false.
 */
export function judgeBlocks(
  steps: readonly ReplayStep[],
  wasted: ReadonlySet<number>,
  disputed?: ReadonlySet<number>,
): Judgement {
  let justified = 0;
  const falseSteps: number[] = [];
  const disputedSteps: number[] = [];
  for (const step of steps) {
    if (step.verdict !== 'block' && step.verdict !== 'halt') continue;
    if (disputed?.has(step.step)) {
      disputedSteps.push(step.step);
      falseSteps.push(step.step);
    } else if (wasted.has(step.step)) justified++;
    else falseSteps.push(step.step);
  }
  return {
    blocks: justified + falseSteps.length,
    justified,
    false: falseSteps.length,
    falseSteps,
    ...(disputed && { disputed: disputedSteps.length, disputedSteps }),
  };
}
