/**
 * Which learned constraints a hook event needs, for a hook process that handles it alone (no
 * helper): the file store then reads those through the state file's index instead of the whole
 * file. The engine looks constraints up by the call's ban key, its targets and its tool, so an
 * event needs the constraints found by those; a prompt, a compaction or a new session needs none.
 * A successful call that may have changed files (an edit, a command with unknown effects) or the
 * state of a service relieves bans about anything it may have touched, found by what they depend
 * on: such an event reads the whole state, as the helper always holds it.
 */
import { hostToolAnnotations } from '../adapters/tool-call/host-tools.js';
import { toolCallToProposal } from '../adapters/tool-call/index.js';
import { withLegacyHash } from '../core/identity/hashing.js';
import { identifyArguments, withoutFreeText } from '../core/identity/index.js';
import type { Policy } from '../core/policy.js';
import { ToolPolicyIndex } from '../core/policy.js';
import type { ActionKind, CallFacts, DomainAdapter, Proposal } from '../core/types.js';
import { callLookupKey, strategyLookupKey, targetLookupKey, toolLookupKey } from '../stores/state-index.js';
import type { HookEvent } from './event.js';

/** The lookup keys of the constraints an event needs, or `all` when it may need any of them. */
export type StateSelection = { readonly keys: readonly string[] } | 'all';

/** Kinds of call whose success changes no file: the engine relieves nothing beyond the call's own bans. */
const LOOKING_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search', 'poll', 'api', 'other']);

export function stateSelectionFor(event: HookEvent, adapter: DomainAdapter, policy: Policy): StateSelection {
  const { action } = event;
  switch (action.type) {
    case 'before-call':
    case 'after-call': {
      const annotations = hostToolAnnotations(event.agent, action.call.tool);
      const proposal = toolCallToProposal(action.call.tool, action.call.input, {
        ...(annotations && { annotations }),
      });
      const call = describe(proposal, adapter);
      const kind = new ToolPolicyIndex(policy).resolve(proposal.tool).kind ?? call.facts.kind;
      if (action.type === 'after-call' && action.result.ok && mayChangeWhatOthersDependOn(call.facts, kind))
        return 'all';
      // A state written before keys hashed long texts with SHA-256 keyed the call's ban otherwise.
      const older = withLegacyHash(() => describe(proposal, adapter).banKey);
      const keys = new Set([
        callLookupKey(call.banKey),
        callLookupKey(older),
        toolLookupKey(proposal.tool),
        strategyLookupKey(call.facts.actionClass),
      ]);
      // A ban learned before the adapter keyed the call as it does now holds the call's older key.
      if (call.facts.olderFailureKey !== undefined) keys.add(callLookupKey(call.facts.olderFailureKey));
      for (const target of call.facts.targets) keys.add(targetLookupKey(target));
      return { keys: [...keys] };
    }
    default:
      // A prompt, a compaction, a new session, a stop: run state only.
      return { keys: [] };
  }
}

/** The call as the engine identifies it (see `NarrowingEngine.identify`). */
function describe(proposal: Proposal, adapter: DomainAdapter) {
  const { identity, args } = identifyArguments(
    proposal.tool,
    withoutFreeText(proposal),
    adapter.normalizeArguments?.bind(adapter),
  );
  const facts = adapter.describeCall(args === proposal.args ? proposal : { ...proposal, args });
  return { facts, banKey: facts.failureKey ?? identity.callKey };
}

/**
 * Whether the call's success may relieve bans found by what they depend on rather than by this
 * call's keys: a change of files, a command with unknown effects, a side effect through a service.
 */
function mayChangeWhatOthersDependOn(facts: CallFacts, kind: ActionKind): boolean {
  if (facts.sideEffect && facts.service !== undefined) return true;
  if (kind === 'exec') return facts.changesNothing !== true;
  return !LOOKING_KINDS.has(kind);
}
