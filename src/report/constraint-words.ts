/** What a learned constraint rules out, said in words rather than in fields. */
import { describeRegion } from '../core/explain.js';
import type { ActionKind, Constraint } from '../core/types.js';

const GERUNDS: Readonly<Record<ActionKind, string>> = {
  read: 'reading',
  search: 'searching',
  mutate: 'editing',
  create: 'creating',
  delete: 'deleting',
  exec: 'running',
  api: 'calling',
  poll: 'polling',
  other: 'using',
};

/** "reading, editing or deleting" */
function listOr(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

function lastCall(constraint: Constraint): string {
  return constraint.evidence.calls.at(-1) ?? constraint.tool ?? constraint.actionClass;
}

/** One sentence, starting with a verb: "blocks reading, editing or deleting src/a.ts: it does not exist". */
export function describeConstraintEffect(constraint: Constraint): string {
  if (constraint.type === 'radius_limit') {
    const radius = constraint.radius ?? 1;
    return `limits each call to at most ${radius} target${radius === 1 ? '' : 's'} at once`;
  }
  switch (constraint.scope) {
    case 'call':
      return `blocks repeating ${lastCall(constraint)} unchanged${callCondition(constraint)}`;
    case 'target': {
      const target = constraint.target ?? 'its target';
      const kinds = listOr((constraint.blocksKinds ?? []).map((kind) => GERUNDS[kind]));
      const action = kinds.length > 0 ? kinds : constraint.actionClass;
      if (constraint.meaning === 'target-missing') return `blocks ${action} ${target}: it does not exist`;
      if (constraint.meaning === 'target-exists') return `blocks ${action} ${target}: it already exists`;
      return `blocks ${action} ${target} until it changes`;
    }
    case 'strategy':
      return (
        `blocks ${constraint.actionClass} as an approach: it failed with ${constraint.signature} ` +
        `on ${constraint.evidence.failures} different targets`
      );
    case 'parameter':
      return `blocks ${constraint.tool ?? 'calls'} with ${describeRegion(constraint.region ?? {})}`;
  }
}

/** What has to happen before the same call may run again. */
function callCondition(constraint: Constraint): string {
  if (constraint.needle !== undefined || constraint.needleHash !== undefined)
    return ` until ${constraint.target ?? 'its file'} changes`;
  if (constraint.dependsOnFiles && constraint.dependsOnFiles.length > 0) {
    return ` until ${listOr([...constraint.dependsOnFiles])} changes`;
  }
  if (constraint.dependsOnWorkspace) return ' until a file in the project changes';
  if (constraint.meaning === 'target-missing' && constraint.target) {
    return ` until ${constraint.target} is created`;
  }
  return '';
}
