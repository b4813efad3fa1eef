/**
 * Work the agent started that goes on after its call answered: a subagent or a command run in the
 * background, a job a shell line sent there. Until the agent hears back (its next user message,
 * where hosts report such work done, or a new session), the world may change with no call of its
 * own, so a question asked again may be answered otherwise: the rules that judge repeated answers
 * read such questions as polls while it runs, judged by time and let through now and then, rather
 * than as answers known for good.
 */
import type { ActionKind } from '../types.js';
import { kindOf } from './applicability.js';
import type { CallContext, ObservedOutcome } from './types.js';

/** Calls that only ask: what they answer is what background work may change under them. */
const ASKING_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search']);

/** A command that only asks: it looks, reads files or computes, and changes nothing. */
function onlyAsks(call: CallContext): boolean {
  const { facts } = call;
  return (
    facts.changesNothing === true ||
    facts.readsFilesOnly === true ||
    facts.computesOnly === true ||
    facts.leavesSourcesAlone === true
  );
}

export class BackgroundWork {
  private running = false;

  /** Background work has started and the agent has not heard back since. */
  get live(): boolean {
    return this.running;
  }

  observe(call: CallContext, outcome: ObservedOutcome): void {
    if (outcome.success && call.facts.startsBackgroundWork === true) this.running = true;
  }

  /** A user message (where hosts report background work done) or a new session. */
  reset(): void {
    this.running = false;
  }

  restore(saved: unknown): void {
    this.running = saved === true;
  }

  /**
   * Whether `call` is judged as a poll: a status check always, and any call that only asks while
   * background work runs.
   */
  polls(call: CallContext): boolean {
    const kind = kindOf(call);
    if (kind === 'poll') return true;
    if (!this.running) return false;
    return ASKING_KINDS.has(kind) || (kind === 'exec' && onlyAsks(call));
  }
}
