/**
 * The `Call` a proposal stands for: its bounded arguments, identity, the adapter's facts and the
 * tool's policy, worked out once when it is checked and found again when its outcome is recorded.
 */
import { Call } from './call-context.js';
import type { ConstraintIndex } from './constraints.js';
import { longTextsHashed, withLegacyHash } from './identity/hashing.js';
import { identifyArguments, withoutFreeText } from './identity/index.js';
import { IdentityCache } from './identity-cache.js';
import { KEY_GENERATION } from './key-generation.js';
import type { ToolPolicyIndex } from './policy.js';
import { sameProposal } from './same-proposal.js';
import type { DomainAdapter, Proposal } from './types.js';
import { uniformFacts } from './uniform-facts.js';

/** Proposals checked and not yet recorded that keep their call; older ones are worked out again. */
const CONTEXT_CACHE = 64;

export class CallContexts {
  private readonly contexts = new IdentityCache<Proposal, Call>(CONTEXT_CACHE);
  private readonly normalizeArguments:
    | ((args: Readonly<Record<string, unknown>>) => Readonly<Record<string, unknown>>)
    | undefined;
  private readonly wordsAboutTheCall:
    | ((args: Readonly<Record<string, unknown>>, inputSchema?: unknown) => readonly string[])
    | undefined;

  constructor(
    private readonly adapter: DomainAdapter,
    private readonly toolPolicies: ToolPolicyIndex,
    private readonly index: ConstraintIndex,
  ) {
    this.normalizeArguments = adapter.normalizeArguments?.bind(adapter);
    this.wordsAboutTheCall = adapter.wordsAboutTheCall?.bind(adapter);
  }

  /**
   * The proposal checked for this outcome: usually one converted afresh from the same call. Apart
   * from `recordOutcome`, whose variables would otherwise all be kept for the search's callback.
   */
  checked(proposal: Proposal): Proposal {
    if (this.contexts.has(proposal)) return proposal;
    return this.contexts.findKey((held) => sameProposal(held, proposal)) ?? proposal;
  }

  /** The call of `proposal` at `now`. */
  of(proposal: Proposal, now: number): Call {
    const cached = this.contexts.get(proposal);
    if (cached) return cached.now === now ? cached : cached.at(now);
    const longTexts = longTextsHashed();
    const { identity, args, described } = this.identify(proposal);
    const toolPolicy = this.toolPolicies.resolve(proposal.tool);
    const facts = uniformFacts(described, toolPolicy.kind);
    const call = new Call(proposal.tool, args, identity, facts, toolPolicy, proposal.step, now);
    // A key made from a long text differs from the one a state written before hash generation 2
    // holds for the same call: while such bans are in the index, the older key finds them.
    if (longTextsHashed() !== longTexts && this.index.holdsOlderKeys) {
      const [older, olderForm] = withLegacyHash(() => {
        const before = this.identify(proposal);
        return [before.described.failureKey ?? before.identity.callKey, before.described.olderFailureKey];
      });
      if (older !== call.banKey) this.index.adoptOlderKey(older, call.banKey);
      if (olderForm !== undefined) this.index.adoptOlderKey(olderForm, call.banKey);
    }
    // The adapter keys the call otherwise than it did (and says so only then): a ban learned under
    // its older key, while the index holds any such, is found by it.
    const olderKey = described.olderFailureKey;
    if (olderKey !== undefined && this.index.holdsEarlierKeys) {
      this.index.adoptOlderKey(olderKey, call.banKey, KEY_GENERATION);
    }
    this.contexts.set(proposal, call);
    return call;
  }

  /** Its outcome is recorded: the proposal's call is not needed again. */
  forget(proposal: Proposal): void {
    this.contexts.delete(proposal);
  }

  clear(): void {
    this.contexts.clear();
  }

  /** The call's identity and what the adapter says of it. */
  private identify(proposal: Proposal) {
    // Hostile or huge arguments (a getter that throws, 200,000 keys) are bounded once, here: every
    // later step works on the bounded copy.
    const { identity, args } = identifyArguments(
      proposal.tool,
      withoutFreeText(proposal, this.wordsAboutTheCall),
      this.normalizeArguments,
    );
    const described = this.adapter.describeCall(args === proposal.args ? proposal : { ...proposal, args });
    return { identity, args, described };
  }
}
