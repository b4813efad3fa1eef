/**
 * Which learned bans stand against a proposed call: its own ban, bans on its targets, strategy and
 * parameter bans, and the blast-radius limit. A ban the world contradicts (a probe sees the file
 * exists now) or whose pinned files changed is lifted here, before it can block.
 */
import type { Call, ConstraintsOn } from './call-context.js';
import { blocksKind, type ConstraintIndex, type Entry, isActive, regionContains } from './constraints.js';
import type { CallContext } from './detectors/types.js';
import {
  callViolation,
  parameterViolation,
  radiusViolation,
  strategyViolation,
  targetViolation,
} from './explain.js';
import { askedAt } from './outside-answers.js';
import type { Policy } from './policy.js';
import type { RadiusLimit } from './radius.js';
import type { AuditSink, Violation, WorkspaceKnowledge, WorldProbe } from './types.js';

/** What the check reads, and how it reports a ban it lifted. */
export interface BanCheckOptions {
  readonly index: ConstraintIndex;
  readonly policy: Policy;
  readonly radius: RadiusLimit;
  readonly workspace: WorkspaceKnowledge;
  readonly probe: WorldProbe | undefined;
  readonly audit: AuditSink | undefined;
  /** Told when a ban was lifted, so that the store saves it. */
  readonly onLifted: () => void;
  /** Told when a file a ban was pinned to holds something else now, changed outside the agent's view. */
  readonly onChangedOutside?: (file: string) => void;
}

/** What `pinFiles` found the files to hold, and whether all of them are configuration. */
export interface FilePins {
  readonly digests: Readonly<Record<string, string>>;
  readonly configuration: boolean;
}

export class BanCheck {
  private readonly index: ConstraintIndex;
  private readonly policy: Policy;
  private readonly radius: RadiusLimit;
  private readonly workspace: WorkspaceKnowledge;
  private readonly probe: WorldProbe | undefined;
  private readonly audit: AuditSink | undefined;
  private readonly onLifted: () => void;
  private readonly onChangedOutside: (file: string) => void;

  constructor(options: BanCheckOptions) {
    this.index = options.index;
    this.policy = options.policy;
    this.radius = options.radius;
    this.workspace = options.workspace;
    this.probe = options.probe;
    this.audit = options.audit;
    this.onLifted = options.onLifted;
    this.onChangedOutside = options.onChangedOutside ?? (() => undefined);
  }

  /**
   * The bans on a call and on each of its targets. Its outcome asks again, usually with nothing
   * changed in between, and in a large index every lookup is a cache miss.
   */
  constraintsOn(call: Call): ConstraintsOn {
    const known = call.constraintsOn;
    if (known !== undefined && known.version === this.index.version) return known;
    const found: ConstraintsOn = {
      version: this.index.version,
      // A ban filed under the whole call (see `Call.keyedFor`) stands when none stands on the failure key.
      own:
        this.index.callEntry(call.banKey) ??
        (call.banKey === call.identity.callKey ? undefined : this.index.callEntry(call.identity.callKey)),
      targets: call.facts.targets.map((target) => this.index.targetEntries(target)),
    };
    call.constraintsOn = found;
    return found;
  }

  /** Adds to `violations` each kind of ban that stands against the call (the first of each kind). */
  collect(call: Call, violations: Violation[]): void {
    const { own, targets: onTargets } = this.constraintsOn(call);
    if (
      own &&
      // A ban is in force when the call puts its question, after any wait it makes first.
      this.inForce(own, askedAt(call)) &&
      !this.contradictedByWorld(own, call) &&
      !this.dependedOnFilesChanged(own, call)
    ) {
      violations.push(callViolation(own, call));
    }
    targets: for (const entries of onTargets) {
      for (const entry of entries) {
        if (
          (call.facts.replacesTarget === true || call.facts.mayCreateTarget === true) &&
          entry.constraint.meaning === 'target-missing'
        )
          continue;
        if (blocksKind(entry.constraint, call.facts.kind) && this.inForce(entry, call.now)) {
          if (this.contradictedByWorld(entry, call)) continue;
          violations.push(targetViolation(entry, call));
          break targets;
        }
      }
    }
    const strategyEffect = this.policy.learning.strategyEffect;
    if (strategyEffect !== 'off' && this.index.hasStrategies(call.facts.actionClass)) {
      for (const entry of this.index.strategiesFor(call.facts.actionClass)) {
        if (this.inForce(entry, call.now)) {
          violations.push(strategyViolation(entry, strategyEffect));
          break;
        }
      }
    }
    for (const entry of this.index.parameterBansFor(call.tool)) {
      if (
        entry.constraint.region &&
        regionContains(entry.constraint.region, call.facts.parameters) &&
        this.inForce(entry, call.now)
      ) {
        violations.push(parameterViolation(entry));
        break;
      }
    }
    const limit = this.radius.limit;
    if (Number.isFinite(limit) && call.facts.targets.length > limit) {
      violations.push(radiusViolation(limit, call, this.radius.failures));
    }
  }

  /**
   * What the files a failure was about hold now, so that its ban holds while they hold that and is
   * lifted when any of them changes; undefined when any cannot be read. `configuration` says whether
   * every one is configuration: only then may the ban outlive the session, since a command's failure
   * about a source file also depends on the configuration that compiles it, which a digest of the
   * file alone would miss.
   */
  pinFiles(files: readonly string[]): FilePins | undefined {
    const probe = this.probe;
    if (probe?.digest === undefined) return undefined;
    const digests: Record<string, string> = {};
    let configuration = true;
    for (const file of files) {
      const digest = probe.digest(file);
      if (digest === undefined) return undefined;
      digests[file] = digest;
      if (configuration && !this.workspace.isConfiguration(file)) configuration = false;
    }
    return { digests, configuration };
  }

  /**
   * Asks the probe whether the world still agrees with a ban on a target's existence; when it
   * does not (the file was created, or deleted, outside the agent's view), the ban is lifted.
   */
  private contradictedByWorld(entry: Entry, call: CallContext): boolean {
    const { meaning, target } = entry.constraint;
    if (!this.probe || !target || (meaning !== 'target-missing' && meaning !== 'target-exists')) return false;
    const exists = this.probe.exists(target);
    if (exists === undefined || exists === (meaning === 'target-exists')) return false;
    this.index.remove(entry, call.now);
    this.audit?.record({
      type: 'constraint_lifted',
      at: call.now,
      constraint: { ...entry.constraint },
      why: `${target} ${exists ? 'exists now' : 'no longer exists'}: it changed outside the agent's view`,
    });
    this.onLifted();
    return true;
  }

  /**
   * Asks the probe whether the files a ban depends on still hold what they held when the call
   * failed; when one does not (edited in an earlier session, or by hand), the ban is lifted.
   */
  private dependedOnFilesChanged(entry: Entry, call: CallContext): boolean {
    const digests = entry.constraint.fileDigests;
    if (digests === undefined) return false;
    // Without a way to look, the ban is not enforced here, and kept for the processes that can.
    if (this.probe?.digest === undefined) return true;
    let changed: string | undefined;
    for (const [file, digest] of Object.entries(digests)) {
      if (this.probe.digest(file) !== digest) {
        changed = file;
        break;
      }
    }
    if (changed === undefined) return false;
    this.index.remove(entry, call.now);
    this.audit?.record({
      type: 'constraint_lifted',
      at: call.now,
      constraint: { ...entry.constraint },
      why: `${changed} has changed since ${entry.constraint.tool ?? 'the call'} failed`,
    });
    this.onLifted();
    this.onChangedOutside(changed);
    return true;
  }

  /** Active and not expired. An expired ban goes on probation: one retry is let through. */
  private inForce(entry: Entry, now: number): boolean {
    if (!isActive(entry)) return false;
    if (entry.constraint.probation) return false;
    if (entry.constraint.expiresAt > now) return true;
    entry.constraint.probation = true;
    this.index.changed(entry);
    return false;
  }
}
