/**
 * Creations that did not take. A tool reported creating a file, and with nothing in between that
 * could have removed it, the next call on that file found it missing: what this tool creates does
 * not appear where the agent's other tools look (it writes elsewhere, or says it wrote when it did
 * not). Until one of its creations is seen to exist, reading, editing or deleting another file it
 * says it created would fail the same way, so it is blocked, with the file that showed it as evidence.
 */
import type { ActionKind, Violation } from '../types.js';
import { isHarnessFault, isWatched, kindOf } from './applicability.js';
import { LruMap } from './bounded.js';
import { readEntries, readSnapshot, readString } from './restore.js';
import type { CallContext, Detector, ObservedOutcome } from './types.js';
import { withAlternatives } from './wording.js';

const NAME = 'unseen-creation';
/** Files created with nothing touching them since: a run rarely creates more. */
const MAX_CREATED = 512;
/** Tools caught creating files that then were not there. */
const MAX_TOOLS = 32;
const VERSION = 1;

/** What finds a file missing when its creation did not take. */
const USES_THE_FILE: ReadonlySet<ActionKind> = new Set(['read', 'mutate', 'delete']);

interface Created {
  /** The tool that reported creating it. */
  readonly tool: string;
  readonly description: string;
}

interface Unseen {
  /** The call that reported creating a file, and the file found missing afterwards. */
  readonly creation: string;
  readonly target: string;
}

export function createUnseenCreationDetector(): Detector {
  /** By target: files a tool reported creating, with nothing having touched them since. */
  const created = new LruMap<Created>(MAX_CREATED);
  /** By tool: the evidence that its creations do not take. */
  const unseen = new LruMap<Unseen>(MAX_TOOLS);

  return {
    name: NAME,

    check(call: CallContext): Violation | undefined {
      if (!isWatched(call, call.toolPolicy.detectors.unseenCreation)) return undefined;
      if (!USES_THE_FILE.has(kindOf(call)) || call.facts.replacesTarget) return undefined;
      for (const target of call.facts.targets) {
        const creation = created.peek(target);
        const evidence = creation && unseen.peek(creation.tool);
        if (creation && evidence) return describe(call, target, creation, evidence);
      }
      return undefined;
    },

    observe(call: CallContext, outcome: ObservedOutcome): void {
      if (isHarnessFault(outcome)) return;
      const kind = kindOf(call);
      const { targets } = call.facts;
      if (outcome.success && kind === 'create') {
        for (const target of targets) created.set(target, { tool: call.tool, description: call.description });
        return;
      }
      if (!outcome.success) {
        if (outcome.failure?.meaning !== 'target-missing') return;
        for (const target of targets) {
          const creation = created.peek(target);
          if (!creation) continue;
          unseen.set(creation.tool, { creation: creation.description, target });
          created.delete(target);
        }
        return;
      }
      // The file was there after all: this tool's creations do take.
      for (const target of targets) {
        const creation = created.peek(target);
        if (!creation) continue;
        created.delete(target);
        if (USES_THE_FILE.has(kind)) unseen.delete(creation.tool);
      }
      if (!outcome.changedWorld || call.facts.leavesSourcesAlone) return;
      // A command or a change that names nothing may have made or removed any file.
      if (kind === 'exec' || targets.length === 0) created.clear();
    },

    reset(reason): void {
      // Between user messages, files may be made or removed by hand.
      created.clear();
      if (reason === 'session') unseen.clear();
    },

    snapshot(): unknown {
      return { version: VERSION, unseen: unseen.entries() };
    },

    restore(state: unknown): void {
      created.clear();
      unseen.clear();
      const snapshot = readSnapshot(state, VERSION);
      for (const [tool, value] of readEntries(snapshot?.unseen, MAX_TOOLS, readUnseen))
        unseen.set(tool, value);
    },
  };
}

function describe(call: CallContext, target: string, creation: Created, evidence: Unseen): Violation {
  const same = evidence.target === target;
  const shown = same
    ? `${target} was missing after an earlier creation too`
    : `${evidence.target} was missing right after ${evidence.creation} reported creating it`;
  return {
    rule: NAME,
    severity: 'block',
    reason:
      `${call.description} would not find ${target}: ${creation.description} reported creating it, but ` +
      `${creation.tool}'s creations have not been there afterwards (${shown}, with nothing in between ` +
      'that could have removed it).',
    suggestion: withAlternatives(
      `Check where ${creation.tool} writes (its working directory, a relative path) or create ${target} another ` +
        'way, then confirm it exists before using it.',
      call.toolPolicy.alternatives,
    ),
    evidence: { count: 1, calls: [creation.description, evidence.creation], target },
  };
}

function readUnseen(raw: Record<string, unknown>): Unseen | undefined {
  const creation = readString(raw.creation);
  const target = readString(raw.target);
  return creation === undefined || target === undefined ? undefined : { creation, target };
}
