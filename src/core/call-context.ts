/**
 * A call as the engine holds it between its check and its outcome: what the adapter said of it, its
 * identity, the tool's policy, and what the constraint index held for it.
 */
import type { Entry } from './constraints.js';
import type { CallContext } from './detectors/types.js';
import { type CallIdentity, describeCall } from './identity/index.js';
import type { ResolvedToolPolicy } from './policy.js';
import { ownCopy, redactText, secretsInArguments, withoutSecrets } from './secrets.js';
import type { CallFacts, FailureFacts } from './types.js';

/** The entries the index held for a call and its targets, at one version of the index. */
export interface ConstraintsOn {
  readonly version: number;
  readonly own: Entry | undefined;
  readonly targets: readonly (readonly Entry[])[];
}

/**
 * A proposed call as the parts of the engine see it. Its readable description is only needed when
 * something is said about the call, which most calls never need, so it is written on first use.
 */
export class Call implements CallContext {
  private text: string | undefined;
  private secretValues: readonly string[] | undefined;
  readonly banKey: string;
  /** What the loop found in the index for this call, and when. */
  constraintsOn: ConstraintsOn | undefined;

  constructor(
    readonly tool: string,
    readonly args: Readonly<Record<string, unknown>>,
    readonly identity: CallIdentity,
    readonly facts: CallFacts,
    readonly toolPolicy: ResolvedToolPolicy,
    readonly step: string | number | undefined,
    readonly now: number,
    banKey?: string,
  ) {
    this.banKey = banKey ?? facts.failureKey ?? identity.callKey;
  }

  /**
   * The call as a ban learned from `failure` files it: under the adapter's `failureKey` when the
   * failure is about the arguments that key holds (an edit's search text not found), under the whole
   * call when it is about the others too (what the edit would write was refused).
   */
  keyedFor(failure: FailureFacts): Call {
    if (!failure.dependsOnWholeCall || this.banKey === this.identity.callKey) return this;
    return this.copy(this.now, this.identity.callKey);
  }

  get description(): string {
    // Said in reasons and kept as evidence: never with the secrets a command line may carry.
    this.text ??= ownCopy(this.withoutSecrets(redactText(describeCall(this.tool, this.args))));
    return this.text;
  }

  /** The credentials the arguments carry (see `secretsInArguments`), found on first use. */
  get secrets(): readonly string[] {
    this.secretValues ??= secretsInArguments(this.args);
    return this.secretValues;
  }

  /** `text` (a tool's answer, say) without any credential this call's arguments carry. */
  withoutSecrets(text: string): string {
    const secrets = this.secrets;
    return secrets.length === 0 ? text : withoutSecrets(text, secrets);
  }

  /** The same call, seen at another time (its outcome arrives later than its check). */
  at(now: number): Call {
    return this.copy(now, this.banKey);
  }

  /** This call at `now`, filed under `banKey`, with what it has already worked out. */
  private copy(now: number, banKey: string): Call {
    const copy = new Call(
      this.tool,
      this.args,
      this.identity,
      this.facts,
      this.toolPolicy,
      this.step,
      now,
      banKey,
    );
    copy.text = this.text;
    copy.secretValues = this.secretValues;
    // The bans found on it are found by its ban key: kept only while the key is the same.
    if (banKey === this.banKey) copy.constraintsOn = this.constraintsOn;
    return copy;
  }
}
