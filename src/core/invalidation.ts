/**
 * Success invalidation: a ban holds only while the state it was learned against is unchanged. What
 * a successful change may have cured, by what the change was and what each ban depends on.
 */
import type { ConstraintIndex, Entry } from './constraints.js';
import type { CallContext } from './detectors/types.js';
import { mentions } from './learning.js';
import { homeSpelling, isAbsolutePath, relativeSpellings, underHome } from './path-spellings.js';
import { relieveSharedOperands } from './shared-operand.js';
import type { Constraint, WorkspaceKnowledge } from './types.js';
import { type Effect, mayIntroduce } from './world.js';

/** How far back a file creation looks for failing commands it may cure: bounded, and rarely reached. */
const CREATION_SCAN = 512;

/** An adapter that says nothing about its workspace: no build outputs, no configuration files. */
export const NO_WORKSPACE_KNOWLEDGE: WorkspaceKnowledge = {
  isGenerated: () => false,
  isConfiguration: () => false,
  mentions: (command, target) => command.includes(target),
  isAboutMissingFile: () => false,
  targetsIn: (command) => command.split(/\s+/).filter((word) => word !== ''),
};

export interface InvalidationContext {
  readonly index: ConstraintIndex;
  readonly workspace: WorkspaceKnowledge;
  /** Bans on commands depend on every file (the `workspace` invalidation policy). */
  readonly workspaceWide: boolean;
  /** Puts a ban on probation; `why` is worded only for bans actually relieved. */
  readonly relieve: (entry: Entry, why: () => string) => void;
}

/**
 * Relieves the bans a successful change may have cured: the change's own targets and what depends
 * on them; for a command with unknown effects, what it names and build outputs; and, where bans
 * depend on the whole workspace, those too.
 */
export function invalidateAfter(effect: Effect, call: CallContext, context: InvalidationContext): void {
  // Reasons are written only for bans actually relieved.
  const because = () => `${call.description} changed the workspace`;
  // Under `target` invalidation only a change of a ban's own target relieves it.
  if (effect.service !== undefined && context.workspaceWide)
    relieveServiceBans(effect.service, call, context);
  if (effect.reachesServices === true && context.workspaceWide) relieveEveryServiceBan(call, context);
  if (effect.movesDirectory) relieveRelativeTargets(call, context);
  // A side effect through a service, or a move to another file, line or directory, changed no file:
  // bans about files and commands still hold (but a relative path now names another file).
  if (effect.kind === 'outside' || effect.kind === 'navigate') return;
  if (effect.everywhere) {
    // A branch switch, a reset or an applied patch may have changed any file: nothing learned holds.
    for (const entry of [...context.index.entries()]) context.relieve(entry, because);
    return;
  }
  if (effect.kind === 'unknown') {
    const command = effect.command ?? '';
    // What the command was read to write, whether or not a ban's target is spelled as it names it.
    for (const target of effect.changedTargets) {
      const why = () => `${call.description} changed ${target}`;
      for (const spelling of spellingsOf(target, context.index)) {
        for (const entry of copyOf(context.index.targetEntries(spelling))) context.relieve(entry, why);
        for (const entry of context.index.dependentsOf(spelling)) context.relieve(entry, why);
        // A folder made, moved or removed (`mkdir -p out/keys`) changes what can be written in it.
        for (const entry of context.index.dependentsUnder(spelling)) context.relieve(entry, why);
      }
      // A failing command whose error was about this file (a syntax error in it) may run otherwise.
      for (const entry of context.index.armedForFile(target)) context.relieve(entry, why);
      relieveProgramRuns(target, call, context);
    }
    const words = context.workspace.targetsIn(command);
    relieveSharedOperands(command, call, context);
    // A command whose effects are unknown (a formatter, an install, a push that sets an upstream)
    // may have changed what any failing command depends on, whichever invalidation policy holds.
    for (const entry of context.index.armedWorkspaceEntries()) context.relieve(entry, because);
    // A command changes files only where it writes: what it names, and build outputs.
    for (const entry of context.index.armedForCommand(words)) {
      const files = entry.constraint.dependsOnFiles ?? [];
      if (
        files.some((file) => context.workspace.isGenerated(file) || context.workspace.mentions(command, file))
      )
        context.relieve(entry, because);
    }
    for (const target of mentionedTargets(words, context.index)) {
      const why = () => `${call.description} may have changed ${target}`;
      for (const entry of copyOf(context.index.targetEntries(target))) context.relieve(entry, why);
      for (const entry of context.index.dependentsOf(target)) context.relieve(entry, why);
    }
    for (const entry of context.index.generatedEntries()) {
      context.relieve(entry, () => `${call.description} may have generated ${entry.constraint.target}`);
    }
    return;
  }
  for (const target of effect.changedTargets) {
    const why = () => `${call.description} changed ${target}`;
    for (const spelling of spellingsOf(target, context.index)) {
      // Relieving can take entries out of the list being read: go over a copy.
      for (const entry of copyOf(context.index.targetEntries(spelling)))
        if (changeRelieves(entry.constraint, effect)) context.relieve(entry, why);
      for (const entry of context.index.dependentsOf(spelling))
        if (changeRelieves(entry.constraint, effect)) context.relieve(entry, why);
      for (const entry of context.index.dependentsUnder(spelling))
        if (changeRelieves(entry.constraint, effect)) context.relieve(entry, why);
    }
    // A failing command that names the file (`sage solve.sage`) runs what it holds, even when its
    // ban depends on other files its error named (`solve.sage.py`, made from it on each run).
    for (const entry of context.index.armedNamingFile(target))
      context.relieve(entry, () => `${call.description} changed ${target}, which the failed command runs`);
    relieveProgramRuns(target, call, context);
  }
  // Whether the change is of configuration is asked only where an armed ban may hear it: most
  // changes find none armed, and the question reads every changed path.
  let configuration: boolean | undefined;
  const changesConfiguration = (): boolean => {
    configuration ??= effect.changedTargets.some((target) => context.workspace.isConfiguration(target));
    return configuration;
  };
  if (context.index.holdsArmedFileBans) {
    if (changesConfiguration()) {
      for (const entry of context.index.armedFileScopedEntries()) context.relieve(entry, because);
    } else {
      for (const target of effect.changedTargets) {
        for (const entry of context.index.armedForFile(target))
          context.relieve(entry, () => `${call.description} changed ${target}`);
      }
    }
  }
  if (!context.workspaceWide) {
    // Only changes a failing command depends on relieve it: a file it names, or configuration.
    for (const entry of context.index.armedWorkspaceEntries()) {
      const command = entry.constraint.target ?? '';
      const named = effect.changedTargets.find((target) => context.workspace.mentions(command, target));
      if (named !== undefined || changesConfiguration())
        context.relieve(entry, () => `${call.description} changed ${named ?? 'the configuration'}`);
    }
    return;
  }
  const armed = context.index.armedWorkspaceEntries();
  if (effect.kind !== 'create') {
    for (const entry of armed) context.relieve(entry, because);
    return;
  }
  // A new file cannot cure a failure that was not about a missing file, unless it is configuration
  // (an ignore list, a linter's settings) that tools look for. Looking through the error texts is
  // bounded: a session rarely has more failing commands than this.
  for (const entry of armed.slice(-CREATION_SCAN)) {
    const relevant =
      changesConfiguration() ||
      context.workspace.isAboutMissingFile(entry.constraint.signature) ||
      effect.changedTargets.some((target) => mentions(entry.constraint.evidence.lastError, target));
    if (relevant) context.relieve(entry, because);
  }
}

/**
 * Failing commands that run the program `target` is a file of (its installed package, its settings
 * folder): the change may change what the program does, whichever files the command names. The
 * bans are walked only for a file of a program, which most changes (a project's own files) are not.
 */
function relieveProgramRuns(target: string, call: CallContext, context: InvalidationContext): void {
  const { programHolding, runsProgram } = context.workspace;
  if (programHolding === undefined || runsProgram === undefined) return;
  const program = programHolding(target);
  if (program === undefined) return;
  const why = () => `${call.description} changed ${target}, a file of the program the failed command runs`;
  for (const entries of [context.index.armedFileScopedEntries(), context.index.armedWorkspaceEntries()]) {
    for (const entry of entries) {
      const command = entry.constraint.target;
      if (command !== undefined && runsProgram(command, program)) context.relieve(entry, why);
    }
  }
}

/**
 * Calls to every outside service, after a command that reached outside this machine (`git push`
 * before a pull request is opened through a forge's API): which service it reached, the command does
 * not say in the words a tool's name does.
 */
function relieveEveryServiceBan(call: CallContext, context: InvalidationContext): void {
  const why = () => `${call.description} changed what is outside this machine`;
  for (const entry of context.index.armedForAnyService()) context.relieve(entry, why);
}

/**
 * Calls to the service a side effect went through: what they failed against (a sold-out flight, an
 * order's status, a balance) may have changed with it.
 */
function relieveServiceBans(service: string, call: CallContext, context: InvalidationContext): void {
  const why = () => `${call.description} changed the state of the service it went through`;
  for (const entry of context.index.armedForService(service)) context.relieve(entry, why);
}

/** One word naming a file or directory from the working directory: no root, home, scheme or blank. */
const RELATIVE_PATH = /^(?![/~\\]|[A-Za-z][A-Za-z0-9+.-]*:)\S+$/;

/**
 * A move of the working directory: a path given relative to it (`open run.py`, `find_file core.py
 * style`) now names another file, so a ban on it learned before the move may not hold.
 */
function relieveRelativeTargets(call: CallContext, context: InvalidationContext): void {
  for (const entry of [...context.index.entries()]) {
    const target = entry.constraint.target;
    if (entry.constraint.scope !== 'call' || target === undefined) continue;
    if (RELATIVE_PATH.test(target) || namesRelativePath(target, context))
      context.relieve(
        entry,
        () => `${call.description} moved the working directory, so ${target} may name another file`,
      );
    else if (runsFromWorkingDirectory(target, context))
      context.relieve(entry, () => `${call.description} moved the working directory, where ${target} runs`);
  }
}

/**
 * A command line acting on a path given from the working directory (`git add docs/notes.md`): a
 * word it acts on that has a folder or an extension in it, with no root, home or scheme.
 */
function namesRelativePath(command: string, context: InvalidationContext): boolean {
  if (!/\s/.test(command)) return false;
  const operands = context.workspace.operandsIn?.(command) ?? [];
  return operands.some((operand) => RELATIVE_PATH.test(operand) && /[^.][/.][^/.]/.test(operand));
}

/**
 * A command line that names no place in full (`pnpm run typecheck`, `make test`): what it runs on
 * (a package, a makefile, a repository) is found from the working directory.
 */
function runsFromWorkingDirectory(command: string, context: InvalidationContext): boolean {
  if (!/\s/.test(command)) return false;
  const operands = context.workspace.operandsIn?.(command);
  if (operands === undefined) return false;
  return !operands.some((operand) => !RELATIVE_PATH.test(operand));
}

/** The targets a command names that some ban is about, in any spelling that may name the same file. */
function mentionedTargets(targets: readonly string[], index: ConstraintIndex): string[] {
  const out: string[] = [];
  for (const target of targets) {
    // `./ctf_files/bard` in a command may be the file a ban keyed `/home/ctfplayer/ctf_files/bard`.
    for (const spelling of spellingsOf(target, index)) {
      if (index.targetEntries(spelling).length > 0 || index.dependentsOf(spelling).length > 0)
        out.push(spelling);
    }
  }
  return out;
}

/**
 * A changed path and the other spellings that may name the same file: when it is absolute, its
 * relative paths (and its spelling from a home directory it is under); when it is relative, or under
 * the home directory (`~/`), the absolute paths bans are keyed by that end with it.
 */
function spellingsOf(target: string, index: ConstraintIndex): readonly string[] {
  if (isAbsolutePath(target)) {
    const home = homeSpelling(target);
    return home === undefined
      ? [target, ...relativeSpellings(target)]
      : [target, ...relativeSpellings(target), home];
  }
  const absolute = index.absoluteSpellingsOf(underHome(target) ?? target);
  return absolute.length === 0 ? [target] : [target, ...absolute];
}

export function copyOf<T>(list: readonly T[]): readonly T[] {
  return list.length === 0 ? list : [...list];
}

/** Which changes of a target can cure a ban on it, by what the failure meant. */
function changeRelieves(constraint: Constraint, effect: Effect): boolean {
  const meaning =
    constraint.meaning ??
    (constraint.blocksKinds?.length === 1 && constraint.blocksKinds[0] === 'create'
      ? 'target-exists'
      : constraint.blocksKinds?.includes('read')
        ? 'target-missing'
        : 'call');
  switch (meaning) {
    case 'target-exists':
      return effect.kind === 'delete';
    case 'target-missing':
      return effect.kind === 'create' || effect.kind === 'mutate';
    case 'content-missing':
      return effect.kind !== 'mutate' || mayIntroduce(effect.writtenText, constraint.needle ?? '');
    default:
      return true;
  }
}
