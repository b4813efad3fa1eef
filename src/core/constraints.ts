/**
 * The learned-constraint store. Every lookup the hot path makes is a map access keyed by call,
 * target or action class, so checking costs the same with 10 or 100,000 constraints.
 */
import { HASH_GENERATION, hashString, TextHash } from './identity/hashing.js';
import { KEY_GENERATION, keyGenerationOf } from './key-generation.js';
import { endsWithPath, fileNameOf, isAbsolutePath } from './path-spellings.js';
import { PrefilteredMap } from './prefiltered-map.js';
import { RecencyMap } from './recency-map.js';
import type {
  ActionKind,
  Constraint,
  LiftedMark,
  Mutable,
  ParameterRegion,
  PersistedState,
} from './types.js';
import { samePath } from './world.js';

/** A constraint plus what the engine needs to decide whether it is in force yet. */
export interface Entry {
  constraint: Mutable<Constraint>;
  /** Failures needed before it is enforced (corroboration). Met: `evidence.failures >= required`. */
  required: number;
  /** Targets whose change lifts this entry (call scope). */
  dependsOn: readonly string[];
  /** What `exportChanges` last gave of this constraint (see `ConstraintIndex.exportChanges`). */
  exported?: ExportedVersion;
}

/** The fields the engine changes on a constraint it keeps, as they were when it was last exported. */
interface ExportedVersion {
  readonly evidence: Constraint['evidence'];
  readonly lastAt: number;
  readonly failures: number;
  readonly callKey: string | undefined;
  readonly keyHash: number | undefined;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly strikes: number;
  readonly probation: boolean;
  readonly fileDigests: Constraint['fileDigests'];
}

/**
 * The empty answer of most lookups. Not frozen: V8 iterates a frozen array through a generic
 * iterator, allocating on every `for…of`, and the hot path loops over this one on every call.
 */
const NONE: readonly Entry[] = [];

export function isActive(entry: Entry): boolean {
  return entry.constraint.evidence.failures >= entry.required;
}

/** Hashes an id's parts as `hashString` hashes them joined, without joining them. */
const idHash = new TextHash();
const ID_SEPARATOR = 1;

/** `c_` and the hash of the parts joined by U+0001, an absent part standing for an empty one. */
export function constraintId(parts: readonly (string | number | undefined)[]): string {
  idHash.reset();
  for (let index = 0; index < parts.length; index++) {
    if (index > 0) idHash.addCode(ID_SEPARATOR);
    const part = parts[index];
    if (part !== undefined && part !== null) idHash.add(typeof part === 'string' ? part : String(part));
  }
  if (!idHash.isLong) return `c_${idHash.finish()}`;
  const joined = parts.map((part) => (part === undefined || part === null ? '' : String(part)));
  return `c_${hashString(joined.join(String.fromCharCode(ID_SEPARATOR)))}`;
}

function strategyKey(actionClass: string, signature: string): string {
  return `${actionClass}\u0001${signature}`;
}

const LIFTED_MEMORY = 10_000;

const NO_PATHS: readonly string[] = [];

export class ConstraintIndex {
  /** Insertion order is recency order: the first entry is the one evicted when full. */
  private readonly all = new RecencyMap<string, Entry>();
  private readonly byCall = new PrefilteredMap<Entry>();
  private readonly byTarget = new PrefilteredMap<Entry[]>();
  /** Call bans by the targets whose change may cure them; a lone ban is stored without a set. */
  private readonly dependents = new PrefilteredMap<Entry | Set<Entry>>();
  /** Call bans by the folders that hold a path they depend on (`out/keys` for `out/keys/key.pem`). */
  private readonly byFolder = new Map<string, Set<Entry>>();
  /**
   * Bans that depend on the workspace as a whole, in the recency order of `all`: a user's message
   * gives each one retry without walking every learned constraint. A `RecencyMap` for the reason
   * `sessionOnly` is one.
   */
  private readonly workspace = new RecencyMap<Entry, true>();
  /**
   * Bans on commands and searches not yet relieved by a change: a change relieves each at most once
   * per ban, so reliefs cost O(1) amortised however many bans there are.
   */
  private readonly armedWorkspace = new Set<Entry>();
  /** The same for bans about particular files, found by file name. */
  private readonly armedByFile = new Map<string, Set<Entry>>();
  /** Absolute paths bans are keyed by (targets, what they depend on), by file name, with a count. */
  private readonly absoluteKeys = new Map<string, Map<string, number>>();
  private readonly armedFileScoped = new Set<Entry>();
  /**
   * The armed file-scoped bans by what their command acts on (the adapter's `operandsIn`), each with
   * its place in `armedFileScoped`'s order: a command of unknown effects finds the ones sharing an
   * operand with it without going over them all.
   */
  private readonly armedByOperand = new Map<string, Set<Entry>>();
  private readonly armedOperands = new Map<
    Entry,
    { readonly operands: readonly string[]; readonly order: number }
  >();
  private armings = 0;
  /** The same bans by the file name of each operand, to find a command naming a file in any spelling. */
  private readonly armedByOperandName = new Map<string, Set<Entry>>();
  private readonly armedGenerated = new Set<Entry>();
  /** Bans on calls to an outside service, by service, not yet relieved by a side effect through it. */
  private readonly armedByService = new Map<string, Set<Entry>>();
  private readonly byStrategy = new Map<string, Entry>();
  private readonly strategiesByClass = new Map<string, Set<Entry>>();
  private readonly parameterBans = new Map<string, Entry[]>();
  /** Bans on build outputs (`dist/…`): any command with unknown effects may have regenerated them. */
  private readonly generated = new Set<Entry>();
  private readonly lifted = new RecencyMap<string, number>();
  /** The lifted marks `exportChanges` last gave. */
  private readonly exportedLifted = new Map<string, number>();
  /**
   * Entries added or changed since `exportChanges` last ran (see `changed`): the only ones it looks
   * at, unless `exportAll` says every entry is to be looked at (the first export, or after
   * `forgetExports`). A flush of a large state that learned nothing walks none of it.
   */
  private unexported = new Set<Entry>();
  private exportAll = true;
  /**
   * The entries a session saves with its run state (not both active and persistent), in the
   * recency order of `all`: a session's turn is saved without walking every learned constraint.
   * A `RecencyMap` for the reason `all` is one: a plain Set that keeps changing keeps every call's
   * objects alive through young-generation collections.
   */
  private readonly sessionOnly = new RecencyMap<Entry, true>();
  private activeCount = 0;
  private membership = 0;
  /** Call bans whose key was computed before `HASH_GENERATION` (read from an older state). */
  private olderKeys = 0;
  /** Call bans whose key was computed before `KEY_GENERATION` (read from an older state). */
  private earlierKeys = 0;

  constructor(
    private readonly capacity: number,
    /** Build outputs (the adapter's knowledge): any command with unknown effects may regenerate them. */
    private readonly isGenerated: (target: string) => boolean = () => false,
    /** What a command acts on (the adapter's knowledge), when the adapter says. */
    private readonly operandsIn?: (command: string) => readonly string[],
  ) {}

  get size(): number {
    return this.all.size;
  }

  get active(): number {
    return this.activeCount;
  }

  get(id: string): Entry | undefined {
    return this.all.get(id);
  }

  callEntry(callKey: string): Entry | undefined {
    return this.byCall.get(callKey);
  }

  /** Whether some call ban was keyed by an older hash generation, and may be found by its older key. */
  get holdsOlderKeys(): boolean {
    return this.olderKeys > 0;
  }

  /** Whether some call ban was keyed before `KEY_GENERATION`, and may be found by an adapter's older key. */
  get holdsEarlierKeys(): boolean {
    return this.earlierKeys > 0;
  }

  /**
   * The ban an older state keyed `olderKey`, keyed from now on by `key`, this generation's key of the
   * same call: found once by its older key, it is found by the current one ever after, and saved so.
   * Only a ban keyed before generation `before` is taken (by default, one keyed before long texts
   * were hashed by SHA-256, whose older key is the legacy hash's).
   */
  adoptOlderKey(olderKey: string, key: string, before: number = HASH_GENERATION): void {
    const entry = this.byCall.get(olderKey);
    if (entry === undefined || this.byCall.get(key) !== undefined) return;
    const generation = keyGenerationOf(entry.constraint.keyHash);
    if (generation >= before) return;
    this.byCall.delete(olderKey);
    entry.constraint.callKey = key;
    entry.constraint.keyHash = KEY_GENERATION;
    this.byCall.set(key, entry);
    if (generation < HASH_GENERATION) this.olderKeys--;
    this.earlierKeys--;
    this.membership++;
    this.unexported.add(entry);
  }

  strategyEntry(actionClass: string, signature: string): Entry | undefined {
    return this.byStrategy.get(strategyKey(actionClass, signature));
  }

  /**
   * Adds a new entry or replaces the one with the same id. Returns entries evicted to make room.
   * `absent`: the caller has just found no entry with this id, and it is not looked up again.
   */
  put(entry: Entry, options: { workspace?: boolean; absent?: boolean } = {}): Entry[] {
    const id = entry.constraint.id;
    const previous = options.absent === true ? undefined : this.all.get(id);
    if (previous) {
      this.unindex(previous);
      this.all.set(id, entry);
    } else {
      this.all.append(id, entry);
    }
    this.index(entry, options.workspace ?? entry.constraint.dependsOnWorkspace === true);
    if (this.lifted.size > 0) this.lifted.delete(id);
    const evicted: Entry[] = [];
    while (this.all.size > this.capacity) {
      const oldest = this.all.shift() as Entry;
      this.unindex(oldest);
      evicted.push(oldest);
    }
    return evicted;
  }

  /** Moves an entry to the recent end after it changed, and keeps the active count right. */
  touch(entry: Entry, wasActive: boolean): void {
    const id = entry.constraint.id;
    this.all.set(id, entry);
    // Moved to the recent end, as in `all`.
    if (this.workspace.has(entry)) this.workspace.set(entry, true);
    this.arm(entry);
    const nowActive = isActive(entry);
    if (wasActive !== nowActive) this.activeCount += nowActive ? 1 : -1;
    this.changed(entry);
    // Moved to the recent end, as in `all`.
    if (!(nowActive && entry.constraint.persistent)) this.sessionOnly.set(entry, true);
    else this.sessionOnly.delete(entry);
  }

  /**
   * Says that `entry`'s constraint was changed in place (its evidence, lifetime, strikes, probation,
   * pinned files or key): the next `exportChanges` looks at it. `put` and `touch` say so themselves;
   * whoever changes a constraint the index holds without them calls this.
   */
  changed(entry: Entry): void {
    if (!this.exportAll) this.unexported.add(entry);
  }

  /** The entries a session saves with its run state (not both active and persistent), least recent first. */
  sessionEntries(): Iterable<Entry> {
    return this.sessionOnly.keys();
  }

  remove(entry: Entry, liftedAt?: number): void {
    const id = entry.constraint.id;
    if (this.all.get(id) !== entry) return;
    this.all.delete(id);
    this.unindex(entry);
    if (liftedAt !== undefined && entry.constraint.persistent) {
      this.lifted.set(id, liftedAt);
      if (this.lifted.size > LIFTED_MEMORY) this.lifted.shift();
    }
  }

  /** Call-scope entries that a change of `target` may invalidate. */
  dependentsOf(target: string): readonly Entry[] {
    const found = this.dependents.get(target);
    if (found === undefined) return NONE;
    return found instanceof Set ? [...found] : [found];
  }

  /** Call-scope entries that depend on a path inside `folder`, which a change of the folder may cure. */
  dependentsUnder(folder: string): readonly Entry[] {
    if (this.byFolder.size === 0) return NONE;
    const found = this.byFolder.get(folder);
    return found === undefined ? NONE : [...found];
  }

  targetEntries(target: string): readonly Entry[] {
    return this.byTarget.get(target) ?? NONE;
  }

  /** The absolute paths some ban is keyed by that a relative path may name the same file as. */
  absoluteSpellingsOf(relative: string): readonly string[] {
    if (this.absoluteKeys.size === 0 || isAbsolutePath(relative)) return NO_PATHS;
    const keys = this.absoluteKeys.get(fileNameOf(relative));
    if (keys === undefined) return NO_PATHS;
    const out: string[] = [];
    for (const key of keys.keys()) if (endsWithPath(key, relative)) out.push(key);
    return out;
  }

  private countAbsolute(path: string, by: 1 | -1): void {
    if (!isAbsolutePath(path)) return;
    const name = fileNameOf(path);
    const keys = this.absoluteKeys.get(name) ?? new Map<string, number>();
    const count = (keys.get(path) ?? 0) + by;
    if (count > 0) keys.set(path, count);
    else keys.delete(path);
    if (keys.size > 0) this.absoluteKeys.set(name, keys);
    else this.absoluteKeys.delete(name);
  }

  hasStrategies(actionClass: string): boolean {
    return this.strategiesByClass.has(actionClass);
  }

  strategiesFor(actionClass: string): Iterable<Entry> {
    return this.strategiesByClass.get(actionClass) ?? NONE;
  }

  parameterBansFor(tool: string): readonly Entry[] {
    return this.parameterBans.get(tool) ?? NONE;
  }

  /** Bans that depend on every file, armed or not, least recent first (a copy: reliefs change the index). */
  workspaceEntries(): readonly Entry[] {
    return this.workspace.size === 0 ? NONE : [...this.workspace.keys()];
  }

  /** Armed bans that depend on every file. */
  armedWorkspaceEntries(): readonly Entry[] {
    return this.armedWorkspace.size === 0 ? NONE : [...this.armedWorkspace];
  }

  /** Armed bans about the file at `path` (or another spelling of it). */
  armedForFile(path: string): readonly Entry[] {
    if (this.armedByFile.size === 0) return NONE;
    const found = this.armedByFile.get(fileName(path));
    if (!found) return NONE;
    return [...found].filter((entry) =>
      entry.constraint.dependsOnFiles?.some((file) => samePath(file, path)),
    );
  }

  /**
   * Armed bans about files a command may have written: files it names (by file name, among its
   * words) and build outputs, which any command with unknown effects may regenerate.
   */
  armedForCommand(words: readonly string[]): readonly Entry[] {
    if (this.armedByFile.size === 0 && this.armedGenerated.size === 0) return NONE;
    const found = new Set<Entry>(this.armedGenerated);
    for (const word of words) {
      for (const entry of this.armedByFile.get(fileName(word)) ?? []) found.add(entry);
    }
    return [...found];
  }

  /**
   * Whether any armed ban about particular files is held, under any file name: when none is, a
   * change has none to relieve, whether or not it is of configuration.
   */
  get holdsArmedFileBans(): boolean {
    return this.armedFileScoped.size > 0 || this.armedByFile.size > 0;
  }

  /** Every armed ban about particular files: a configuration change may cure any of them. */
  armedFileScopedEntries(): readonly Entry[] {
    return this.armedFileScoped.size === 0 ? NONE : [...this.armedFileScoped];
  }

  /**
   * The armed bans about particular files whose command acts on one of `operands` (by the
   * adapter's `operandsIn`), in the order of `armedFileScopedEntries`, each with the first of its
   * own operands that is one of them.
   */
  armedSharingOperands(operands: ReadonlySet<string>): readonly { entry: Entry; shared: string }[] {
    if (this.armedByOperand.size === 0) return [];
    const found = new Set<Entry>();
    for (const operand of operands)
      for (const entry of this.armedByOperand.get(operand) ?? []) found.add(entry);
    const out: { entry: Entry; shared: string; order: number }[] = [];
    for (const entry of found) {
      const armed = this.armedOperands.get(entry);
      if (armed === undefined) continue;
      const shared = armed.operands.find((operand) => operands.has(operand));
      if (shared !== undefined) out.push({ entry, shared, order: armed.order });
    }
    return out.sort((a, b) => a.order - b.order);
  }

  /**
   * The armed bans about particular files whose command names the file at `path` among what it acts
   * on, in any spelling of it (`solve.sage`, `~/ctf/solve.sage`, `/home/me/ctf/solve.sage`).
   */
  armedNamingFile(path: string): readonly Entry[] {
    if (this.armedByOperandName.size === 0) return NONE;
    const found = this.armedByOperandName.get(fileName(path));
    if (!found) return NONE;
    return [...found].filter((entry) =>
      this.armedOperands.get(entry)?.operands.some((operand) => samePath(operand, path)),
    );
  }

  /** Armed bans on calls to `service`: a side effect through it may have cured any of them. */
  armedForService(service: string): readonly Entry[] {
    const found = this.armedByService.get(service);
    return found === undefined ? NONE : [...found];
  }

  /**
   * Armed bans on calls to the tools of a named server (`mcp__github__…`), not those of tools that
   * name none: a server is one the user set up, whose token and permissions the user may change.
   */
  armedForNamedServers(): readonly Entry[] {
    return this.armedForServices(true);
  }

  /** Armed bans on calls to any outside service: a change made outside this machine may have cured them. */
  armedForAnyService(): readonly Entry[] {
    return this.armedForServices(false);
  }

  /** Armed bans on calls to every service, or only to those a name carries (`namedOnly`). */
  private armedForServices(namedOnly: boolean): readonly Entry[] {
    if (this.armedByService.size === 0) return NONE;
    const found: Entry[] = [];
    for (const [service, entries] of this.armedByService)
      if (!namedOnly || service !== '') found.push(...entries);
    return found;
  }

  /** A relieved ban waits for its retry; it is armed again if the retry fails. */
  disarm(entry: Entry): void {
    const service = entry.constraint.dependsOnService;
    if (service !== undefined) {
      const set = this.armedByService.get(service);
      set?.delete(entry);
      if (set?.size === 0) this.armedByService.delete(service);
    }
    this.armedWorkspace.delete(entry);
    this.armedGenerated.delete(entry);
    if (!this.armedFileScoped.delete(entry)) return;
    const armed = this.armedOperands.get(entry);
    if (armed !== undefined) {
      this.armedOperands.delete(entry);
      for (const operand of armed.operands) {
        const set = this.armedByOperand.get(operand);
        set?.delete(entry);
        if (set?.size === 0) this.armedByOperand.delete(operand);
        const named = this.armedByOperandName.get(fileName(operand));
        named?.delete(entry);
        if (named?.size === 0) this.armedByOperandName.delete(fileName(operand));
      }
    }
    for (const file of entry.constraint.dependsOnFiles ?? []) {
      const set = this.armedByFile.get(fileName(file));
      set?.delete(entry);
      if (set?.size === 0) this.armedByFile.delete(fileName(file));
    }
  }

  private arm(entry: Entry): void {
    const service = entry.constraint.dependsOnService;
    if (service !== undefined && !entry.constraint.probation && this.all.get(entry.constraint.id) === entry)
      addTo(this.armedByService, service, entry);
    if (!this.workspace.has(entry) || entry.constraint.probation) return;
    const files = entry.constraint.dependsOnFiles;
    if (!files || files.length === 0) {
      this.armedWorkspace.add(entry);
      return;
    }
    if (!this.armedFileScoped.has(entry)) {
      this.armedFileScoped.add(entry);
      this.indexOperands(entry);
    }
    for (const file of files) addTo(this.armedByFile, fileName(file), entry);
    if (files.some(this.isGenerated)) this.armedGenerated.add(entry);
  }

  private indexOperands(entry: Entry): void {
    const target = entry.constraint.target;
    if (this.operandsIn === undefined || target === undefined) return;
    const operands = this.operandsIn(target);
    if (operands.length === 0) return;
    this.armedOperands.set(entry, { operands, order: this.armings++ });
    for (const operand of operands) {
      addTo(this.armedByOperand, operand, entry);
      addTo(this.armedByOperandName, fileName(operand), entry);
    }
  }

  generatedEntries(): readonly Entry[] {
    return this.generated.size === 0 ? NONE : [...this.generated];
  }

  entries(): IterableIterator<Entry> {
    return this.all.values();
  }

  clearPending(): void {
    for (const entry of [...this.all.values()]) {
      if (!isActive(entry) || !entry.constraint.persistent) this.remove(entry);
    }
  }

  exportState(now: number): PersistedState {
    const constraints: Constraint[] = [];
    for (const entry of this.all.values()) {
      if (isActive(entry) && entry.constraint.persistent) constraints.push({ ...entry.constraint });
    }
    const lifted: LiftedMark[] = [...this.lifted.entries()].map(([id, at]) => ({ id, at }));
    return { version: 1, savedAt: now, constraints, lifted };
  }

  /**
   * The persistent part that changed since the last call (all of it on the first): the constraints
   * whose evidence, key, lifetime, strikes, probation or pinned files changed since the last call
   * gave them (every way the engine changes a constraint it keeps), and the lifted marks it did not
   * give. Merged into a store that holds the earlier exports (stores merge, see `StateStore`), it
   * gives what `exportState` would: a store keeps a constraint whose version it already holds.
   * It looks only at the entries added or changed since the last call (every entry on the first), and
   * copies only those that changed: a state that learned nothing costs no walk and no allocation.
   */
  exportChanges(now: number): PersistedState {
    const constraints: Constraint[] = [];
    const looked: Iterable<Entry> = this.exportAll ? this.all.values() : this.unexported;
    for (const entry of looked) {
      const constraint = entry.constraint;
      if (!constraint.persistent || !isActive(entry)) continue;
      if (entry.exported !== undefined && unchangedSince(entry.exported, constraint)) continue;
      constraints.push({ ...constraint });
      entry.exported = exportedVersion(constraint);
    }
    // A new set rather than an emptied one (see `RecencyMap.clear`).
    if (this.unexported.size > 0) this.unexported = new Set<Entry>();
    this.exportAll = false;
    const lifted: LiftedMark[] = [];
    for (const [id, at] of this.lifted.entries()) {
      if (this.exportedLifted.get(id) === at) continue;
      this.exportedLifted.set(id, at);
      lifted.push({ id, at });
    }
    if (this.exportedLifted.size > this.lifted.size) {
      for (const id of this.exportedLifted.keys()) if (!this.lifted.has(id)) this.exportedLifted.delete(id);
    }
    return { version: 1, savedAt: now, constraints, lifted };
  }

  /** The next `exportChanges` gives the whole persistent part again (the store may have lost some). */
  forgetExports(): void {
    for (const entry of this.all.values()) entry.exported = undefined;
    this.exportedLifted.clear();
    if (this.unexported.size > 0) this.unexported = new Set<Entry>();
    this.exportAll = true;
  }

  /** Changes whenever an entry joins or leaves the index: lookups made at the same value still hold. */
  get version(): number {
    return this.membership;
  }

  private index(entry: Entry, workspace: boolean): void {
    const constraint = entry.constraint;
    this.membership++;
    const active = isActive(entry);
    if (active) this.activeCount++;
    this.changed(entry);
    if (!(active && constraint.persistent)) this.sessionOnly.set(entry, true);
    switch (constraint.scope) {
      case 'call':
        if (constraint.callKey) {
          this.byCall.set(constraint.callKey, entry);
          if (constraint.keyHash === undefined) this.olderKeys++;
          if (keyGenerationOf(constraint.keyHash) < KEY_GENERATION) this.earlierKeys++;
        }
        break;
      case 'target':
        if (constraint.target) {
          pushTo(this.byTarget, constraint.target, entry);
          this.countAbsolute(constraint.target, 1);
        }
        break;
      case 'strategy': {
        this.byStrategy.set(strategyKey(constraint.actionClass, constraint.signature), entry);
        addTo(this.strategiesByClass, constraint.actionClass, entry);
        break;
      }
      case 'parameter':
        // A region of parameters holds for every trial of the tool, whatever changed since the last.
        pushTo(this.parameterBans, constraint.tool ?? '', entry);
        break;
    }
    for (const target of entry.dependsOn) {
      this.countAbsolute(target, 1);
      for (const folder of foldersHolding(target)) addTo(this.byFolder, folder, entry);
      const found = this.dependents.get(target);
      if (found === undefined) this.dependents.set(target, entry);
      else if (found instanceof Set) found.add(entry);
      else if (found !== entry) this.dependents.set(target, new Set([found, entry]));
    }
    if (workspace) {
      this.workspace.set(entry, true);
      this.arm(entry);
      return;
    }
    if (constraint.dependsOnService !== undefined) this.arm(entry);
    if (constraint.target && this.isGenerated(constraint.target)) this.generated.add(entry);
  }

  private unindex(entry: Entry): void {
    const constraint = entry.constraint;
    this.membership++;
    if (isActive(entry)) this.activeCount--;
    this.unexported.delete(entry);
    this.sessionOnly.delete(entry);
    switch (constraint.scope) {
      case 'call':
        if (constraint.callKey && this.byCall.get(constraint.callKey) === entry)
          this.byCall.delete(constraint.callKey);
        if (constraint.callKey && constraint.keyHash === undefined) this.olderKeys--;
        if (constraint.callKey && keyGenerationOf(constraint.keyHash) < KEY_GENERATION) this.earlierKeys--;
        break;
      case 'target':
        if (constraint.target) {
          pullFrom(this.byTarget, constraint.target, entry);
          this.countAbsolute(constraint.target, -1);
        }
        break;
      case 'strategy': {
        const key = strategyKey(constraint.actionClass, constraint.signature);
        if (this.byStrategy.get(key) === entry) this.byStrategy.delete(key);
        const set = this.strategiesByClass.get(constraint.actionClass);
        set?.delete(entry);
        if (set?.size === 0) this.strategiesByClass.delete(constraint.actionClass);
        break;
      }
      case 'parameter':
        pullFrom(this.parameterBans, constraint.tool ?? '', entry);
        break;
    }
    for (const target of entry.dependsOn) {
      this.countAbsolute(target, -1);
      for (const folder of foldersHolding(target)) {
        const set = this.byFolder.get(folder);
        set?.delete(entry);
        if (set?.size === 0) this.byFolder.delete(folder);
      }
      const found = this.dependents.get(target);
      if (found === entry) this.dependents.delete(target);
      else if (found instanceof Set) {
        found.delete(entry);
        if (found.size === 0) this.dependents.delete(target);
      }
    }
    this.disarm(entry);
    this.workspace.delete(entry);
    this.generated.delete(entry);
  }
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

type EntryLists = Map<string, Entry[]> | PrefilteredMap<Entry[]>;

/** How many folders up from a path are indexed: enough for a `mkdir -p` of a few levels. */
const FOLDER_DEPTH = 4;

/**
 * The folders a path is inside, nearest first (`out/keys`, `out` for `out/keys/key.pem`): none for
 * what is not one path (a command line, an address) or has no folder, and never the root or home.
 */
function foldersHolding(path: string): readonly string[] {
  if (!path.includes('/') || /\s|:\/\//.test(path)) return NONE_FOLDERS;
  const out: string[] = [];
  let end = path.endsWith('/') ? path.length - 1 : path.length;
  while (out.length < FOLDER_DEPTH) {
    end = path.lastIndexOf('/', end - 1);
    if (end <= 0) break;
    const folder = path.slice(0, end);
    if (folder === '~' || folder === '.' || folder === '..') break;
    out.push(folder.startsWith('./') ? folder.slice(2) : folder);
  }
  return out;
}
const NONE_FOLDERS: readonly string[] = [];

function addTo(map: Map<string, Set<Entry>>, key: string, entry: Entry): void {
  const set = map.get(key);
  if (set) set.add(entry);
  else map.set(key, new Set([entry]));
}

function pushTo(map: EntryLists, key: string, entry: Entry): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

function pullFrom(map: EntryLists, key: string, entry: Entry): void {
  const list = map.get(key);
  if (!list) return;
  const index = list.indexOf(entry);
  if (index >= 0) list.splice(index, 1);
  if (list.length === 0) map.delete(key);
}

/** Whether a target-scope constraint rules out this kind of action on its target. */
export function blocksKind(constraint: Constraint, kind: ActionKind): boolean {
  return constraint.blocksKinds?.includes(kind) ?? false;
}

/** True when every bound of the region holds for these parameters. */
export function regionContains(
  region: ParameterRegion,
  parameters: Readonly<Record<string, number | string | boolean>> | undefined,
): boolean {
  if (!parameters) return false;
  for (const [name, value] of Object.entries(region.equals ?? {})) {
    if (parameters[name] !== value) return false;
  }
  for (const [name, bound] of Object.entries(region.atLeast ?? {})) {
    const value = parameters[name];
    if (typeof value !== 'number' || value < bound) return false;
  }
  for (const [name, bound] of Object.entries(region.atMost ?? {})) {
    const value = parameters[name];
    if (typeof value !== 'number' || value > bound) return false;
  }
  return true;
}

/** `a` contains every point of `b`: used to keep only the widest of nested parameter bans. */
export function regionCovers(a: ParameterRegion, b: ParameterRegion): boolean {
  for (const [name, value] of Object.entries(a.equals ?? {})) {
    if (b.equals?.[name] !== value) return false;
  }
  for (const [name, bound] of Object.entries(a.atLeast ?? {})) {
    const other =
      b.atLeast?.[name] ?? (typeof b.equals?.[name] === 'number' ? (b.equals[name] as number) : undefined);
    if (other === undefined || other < bound) return false;
  }
  for (const [name, bound] of Object.entries(a.atMost ?? {})) {
    const other =
      b.atMost?.[name] ?? (typeof b.equals?.[name] === 'number' ? (b.equals[name] as number) : undefined);
    if (other === undefined || other > bound) return false;
  }
  return true;
}

function exportedVersion(constraint: Constraint): ExportedVersion {
  return {
    evidence: constraint.evidence,
    lastAt: constraint.evidence.lastAt,
    failures: constraint.evidence.failures,
    callKey: constraint.callKey,
    keyHash: constraint.keyHash,
    createdAt: constraint.createdAt,
    expiresAt: constraint.expiresAt,
    strikes: constraint.strikes,
    probation: constraint.probation,
    fileDigests: constraint.fileDigests,
  };
}

function unchangedSince(version: ExportedVersion, constraint: Constraint): boolean {
  return (
    version.evidence === constraint.evidence &&
    version.lastAt === constraint.evidence.lastAt &&
    version.failures === constraint.evidence.failures &&
    version.callKey === constraint.callKey &&
    version.keyHash === constraint.keyHash &&
    version.createdAt === constraint.createdAt &&
    version.expiresAt === constraint.expiresAt &&
    version.strikes === constraint.strikes &&
    version.probation === constraint.probation &&
    version.fileDigests === constraint.fileDigests
  );
}
