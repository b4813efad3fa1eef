/**
 * A circuit breaker for tools whose infrastructure is failing: timeouts, rate limits, outages.
 * These faults are never the agent's fault, so this detector only ever advises — it says how long
 * to wait and what else could do the job, and it never blocks.
 */
import type { Violation } from '../types.js';
import { actingToolOf, isHarnessFault, isWatched } from './applicability.js';
import { LruMap } from './bounded.js';
import { readCount, readEntries, readNumber, readSnapshot, readString } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import {
  faultSuggestion,
  type PendingQuote,
  quotedLastError,
  secondsFrom,
  withAlternatives,
  withQuotedError,
} from './wording.js';

const NAME = 'tool-health';
const MAX_TOOLS = 1_000;
const VERSION = 1;

/** With its last fault quoted only when a reason or a snapshot needs it. */
interface Health extends PendingQuote {
  /** Harness faults in a row. */
  faults: number;
  /** Times the circuit opened since the tool last worked: each re-open doubles the cool-down. */
  opens: number;
  /** Milliseconds; the circuit is open before this. */
  openUntil: number;
  /** Milliseconds; the tool asked callers to wait (Retry-After) until this. */
  waitUntil: number;
}

export function createToolHealthDetector(): Detector {
  const tools = new LruMap<Health>(MAX_TOOLS);

  return {
    name: NAME,
    observesHarnessFaults: true,

    check(call: CallContext): Violation | undefined {
      if (!isWatched(call, call.toolPolicy.detectors.toolHealth)) return undefined;
      const health = tools.peek(actingToolOf(call));
      if (!health) return undefined;
      if (call.now < health.openUntil) return describe(call, health, health.openUntil, 'open');
      if (call.now < health.waitUntil) return describe(call, health, health.waitUntil, 'asked');
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      const limits = call.toolPolicy.detectors.toolHealth;
      if (!isWatched(call, limits)) return;
      const tool = actingToolOf(call);
      if (!isHarnessFault(outcome)) {
        // A success, or an answer that blames the agent: either way the tool is reachable again.
        // Unknown failures say nothing about the tool's health.
        if (outcome.success || outcome.failure?.blame === 'agent_failure') tools.delete(tool);
        return;
      }
      const health = tools.peek(tool) ?? {
        faults: 0,
        opens: 0,
        openUntil: 0,
        waitUntil: 0,
        lastError: '',
        pendingError: undefined,
      };
      health.faults++;
      health.pendingError = outcome.text;
      const retryAfterMs = Math.max(0, (outcome.failure?.retryAfterSeconds ?? 0) * 1000);
      if (retryAfterMs > 0) health.waitUntil = Math.max(health.waitUntil, call.now + retryAfterMs);
      if (call.now < health.openUntil) {
        health.openUntil = Math.max(health.openUntil, call.now + retryAfterMs);
      } else if (health.opens > 0 || health.faults >= limits.openAfter) {
        // Either the threshold is reached, or the one trial call after a cool-down failed too.
        const cooldownSeconds = Math.min(
          limits.cooldownSeconds * 2 ** Math.min(health.opens, 30),
          Math.max(limits.cooldownSeconds, limits.maxCooldownSeconds),
        );
        health.openUntil = call.now + Math.max(cooldownSeconds * 1000, retryAfterMs);
        health.opens++;
      }
      tools.set(tool, health);
    },

    reset(reason: 'user' | 'session'): void {
      // A new user message does not repair a server: the circuit outlives the run.
      if (reason === 'session') tools.clear();
    },

    snapshot(): unknown {
      return {
        version: VERSION,
        tools: tools.entries().map(([tool, health]) => [tool, withQuotedError(health)] as const),
      };
    },

    restore(state: unknown): void {
      tools.clear();
      const snapshot = readSnapshot(state, VERSION);
      for (const [tool, health] of readEntries(snapshot?.tools, MAX_TOOLS, readHealth)) {
        tools.set(tool, health);
      }
    },
  };
}

function describe(call: CallContext, health: Health, until: number, why: 'open' | 'asked'): Violation {
  const wait = secondsFrom(until - call.now);
  const lastError = quotedLastError(health);
  const tool = actingToolOf(call);
  const reason =
    why === 'open'
      ? `${tool} has failed ${health.faults} times in a row for reasons outside your control ` +
        `(last: ${lastError}); give it about ${wait} s before calling it again.`
      : `${tool} asked callers to wait (last: ${lastError}); ` +
        `calling it again within the next ${wait} s will likely fail the same way.`;
  return {
    rule: NAME,
    severity: 'warn',
    reason,
    suggestion: withAlternatives(faultSuggestion(tool, wait), call.toolPolicy.alternatives),
    evidence: { count: health.faults, lastError, retryInSeconds: wait },
  };
}

function readHealth(raw: Record<string, unknown>): Health | undefined {
  const faults = readCount(raw.faults);
  if (faults === undefined) return undefined;
  return {
    faults,
    opens: readCount(raw.opens) ?? 0,
    openUntil: readNumber(raw.openUntil) ?? 0,
    waitUntil: readNumber(raw.waitUntil) ?? 0,
    lastError: readString(raw.lastError) ?? '',
    pendingError: undefined,
  };
}
