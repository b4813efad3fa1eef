/**
 * The tool-call domain adapter: reads any agent tool call (MCP tools, the built-in tools of coding
 * agents, framework tools) and its outcome in the engine's terms.
 */

import { canonicalJson, hashMaskedArgument, hashString } from '../../core/identity/index.js';
import type {
  ActionKind,
  Blame,
  CallFacts,
  DomainAdapter,
  FailureFacts,
  FailureMeaning,
  Mutable,
  Outcome,
  Proposal,
} from '../../core/types.js';
import {
  actionClassOf,
  hasOutsideEffect,
  isRecord,
  kindOfCall,
  readToolName,
  serviceOf,
  TOOL_CALL_ACTION_CLASSES,
} from './action-classes.js';
import { toolRefusedItsArguments } from './argument-binding.js';
import {
  collapsedLine,
  commandText,
  editList,
  editsInPlace,
  exactSearchTexts,
  filesNamedIn,
  needleOf,
  patchBody,
  patchOnlyAddsFiles,
  patchTargets,
  readsPartially,
  replacesLinesInPlace,
  sourceFilesRunBy,
  writesWholeFile,
  writtenTextBeside,
} from './call-arguments.js';
import { isCodeSearch } from './code-search.js';
import { commandAttemptKeys } from './command-attempt.js';
import { runsInWorkspaceRoot } from './command-directory.js';
import {
  asksOutsideMachine,
  configurationNamedBy,
  directoryAfter,
  isStatusCheck,
  leavesSourcesAlone,
  navigatesByName,
  onlyChangesDirectory,
  placeMovedTo,
  programOf,
  programOfLines,
  programOfScript,
  startsByChangingDirectory,
  startsOrStopsByName,
  waitSecondsOf,
  waitSecondsOfArguments,
} from './command-effects.js';
import { keyWithoutDescription } from './described-call.js';
import { quotesArguments, quotesValue, withoutEchoes } from './echoes.js';
import { editedFilesByName } from './edited-file.js';
import { isEmptyAnswer } from './empty-result.js';
import { errorShape } from './error-shape.js';
import { blameByWords } from './evidence-words.js';
import { programNotFound, withoutStartupLines } from './failure-lines.js';
import { queriedFiles } from './file-queries.js';
import { isUnflaggedRefusal } from './file-refusals.js';
import { programGoneUnderCall } from './gone-program.js';
import { heldByAnotherProcess } from './held-lock.js';
import { SignatureMatcher } from './matcher.js';
import { forEachMatch } from './matches.js';
import { normalizeArguments, wordsAboutTheCall } from './normal-form.js';
import { refusesOrder } from './ordering.js';
import { answerNamesTool } from './own-name.js';
import { failedForItsPage, pageFailureKey } from './page-failure.js';
import { asksPersonByName } from './person-questions.js';
import { waitsForPerson } from './person-waits.js';
import { withoutPointerLines } from './pointer-lines.js';
import { fileRacedUnderCall } from './raced-file.js';
import { relayedCall, wrappedArguments } from './relayed-call.js';
import { withoutScriptBanners } from './script-banners.js';
import { pathsNamedInScript } from './script-paths.js';
import { isScriptFile, scriptFileRun } from './script-runs.js';
import { makesWhatItMissed } from './self-made-file.js';
import { operandKindOf } from './shell-effects.js';
import { startsBackgroundJob, statusProgram } from './shell-parse.js';
import {
  BROKEN_ENVIRONMENT,
  EDIT_NOOP,
  EMPTY,
  KILLED,
  LOCKED,
  parseRetryAfter,
  RULE_OF_SIGNATURE,
  ruleForErrorCode,
  ruleForException,
  ruleForExitCode,
  ruleForProgramExit,
  ruleForStatus,
  type SignatureRule,
  STALE_READ,
  TEXT_RULES,
  TIMEOUT,
  TOOL_CALL_SIGNATURES,
  type ToolCallSignature,
  UNAVAILABLE,
  UNRECOGNISED,
  UNRECOGNISED_COMMAND,
  VALIDATION,
  WAITED_FOR_INPUT,
} from './signatures.js';
import { withoutListings } from './source-listings.js';
import { sqlStatementOf, sqlTextOf } from './sql-statements.js';
import { mayHaveWrittenBeforeStopping } from './stopped-writes.js';
import { extractTargets, normalizeTarget } from './targets.js';
import { runsTests } from './test-runs.js';
import { missingOperands, rejectedArgumentNames, unavailableValues } from './unavailable.js';
import { containerGoneUnderCall, sandboxLostUnderCall } from './vanished-container.js';
import { waitedForInput } from './waited-input.js';
import {
  isWindowsDirectory,
  lineEffectsOf,
  printsServiceLogsOf,
  readsAsWindowsShell,
  windowsAttemptKey,
} from './windows-shell.js';
import { isReadOnlyCommand } from './workspace.js';
import { toolCallWorkspace } from './workspace-knowledge.js';

/** A failure pattern of your own tools, tried before the built-in ones. */
export interface ExtraPattern {
  readonly pattern: RegExp;
  /** One of the built-in signatures, or a new name (then listed after them). */
  readonly signature: string;
  /** Defaults to the built-in signature's blame, or `unknown` for a new name. */
  readonly blame?: Blame;
  /** Defaults to the built-in signature's, or `false` for a new name. */
  readonly deterministic?: boolean;
}

export interface ToolCallAdapterOptions {
  readonly patterns?: readonly ExtraPattern[];
  /** Kinds for tools whose names say nothing, by exact tool name (`{ frobnicate: 'mutate' }`). */
  readonly toolKinds?: Readonly<Record<string, ActionKind>>;
}

export interface ToolCallAdapter extends DomainAdapter {
  isNonAdvancing(outcome: Outcome, call?: CallFacts): boolean;
  answersNothing(outcome: Outcome, call: CallFacts, failure?: FailureFacts): boolean;
  answerNamesTool(outcome: Outcome): boolean;
  errorShape(text: string): string;
  quotableError(text: string): string;
}

/** MCP `_meta` keys a server sets on a result that carries nothing new. */
const NON_ADVANCING_KEYS = ['dev.narrowing/non-advancing', 'ai.nimblebrain/non-advancing'] as const;

const MAX_TEXT_SCANNED = 8192;

/** Rule sets whose matcher is kept for later adapters: a process rarely sees more than one or two. */
const MAX_SHARED_MATCHERS = 16;
/** Matchers by the content of the caller's rules before the built-in ones ('' for none), oldest first. */
const sharedMatchers = new Map<string, SignatureMatcher>();

/**
 * The matcher for the built-in rules after a caller's own: building one reads the layout the build
 * made of the built-in rules, a few milliseconds, or with a caller's rules lays them all out anew
 * (the built-in ones from the splits in that layout) and builds the scanner of their hints, tens of
 * milliseconds; so it is built once per process for each set of rules (compared by content, every
 * field and each regex's source and flags) and shared by every adapter with the same rules, such as
 * a replay's guard and each subagent's (a matcher keeps no state from one text to the next).
 * Exported for tests.
 */
export function matcherFor(extraRules: readonly SignatureRule[]): SignatureMatcher {
  const key = extraRules.map(ruleKey).join('\n');
  let matcher = sharedMatchers.get(key);
  if (matcher === undefined) {
    matcher = new SignatureMatcher(extraRules.length > 0 ? [...extraRules, ...TEXT_RULES] : TEXT_RULES);
    if (sharedMatchers.size >= MAX_SHARED_MATCHERS)
      sharedMatchers.delete(sharedMatchers.keys().next().value as string);
    sharedMatchers.set(key, matcher);
  }
  return matcher;
}

/** Every field of a rule, its regexes by source and flags, without ambiguity (JSON). */
function ruleKey(rule: SignatureRule): string {
  return JSON.stringify(rule, (_, value: unknown) =>
    value instanceof RegExp ? `/${value.source}/${value.flags}` : value,
  );
}

/** Whether the host or the user said what the tool does: a kind given, or a hint about its effects. */
function pinnedKind(proposal: Proposal, configured: ReadonlyMap<string, unknown>): boolean {
  const annotations = proposal.annotations;
  return (
    configured.has(proposal.tool) ||
    annotations?.narrowing?.kind !== undefined ||
    annotations?.readOnlyHint !== undefined ||
    annotations?.destructiveHint !== undefined
  );
}

/** A search that asks an outside service (the web, an API) does not depend on an open file. */
function hasQueryOnlyService(facts: CallFacts): boolean {
  return facts.service !== undefined && facts.service !== '';
}

export function createToolCallAdapter(options: ToolCallAdapterOptions = {}): ToolCallAdapter {
  const extraRules = (options.patterns ?? []).map(toRule);
  let matcher: SignatureMatcher | undefined;
  /** Built on the first failure read: a process that only checks calls, or reads successes, never builds it. */
  const signatureMatcher = (): SignatureMatcher => {
    matcher ??= matcherFor(extraRules);
    return matcher;
  };
  const signatures: string[] = [...TOOL_CALL_SIGNATURES];
  for (const extra of extraRules) if (!signatures.includes(extra.signature)) signatures.push(extra.signature);
  const configuredKinds = new Map(Object.entries(options.toolKinds ?? {}));

  function describeCall(proposal: Proposal): CallFacts {
    const args = isRecord(proposal.args) ? proposal.args : {};
    const described = keyWithoutDescription(proposal.tool, args, proposal.inputSchema);
    // A call that relays another (`use_mcp_tool`) does what the relayed call does, and one whose one
    // argument wraps the others (`{operation: {type, path, diff}}`) acts on those, unless the host or
    // the user said what the call itself does.
    const pinned = pinnedKind(proposal, configuredKinds);
    const relayed = pinned ? undefined : relayedCall(args);
    const wrapped = pinned || relayed !== undefined ? undefined : wrappedArguments(args);
    const facts =
      relayed !== undefined
        ? readCall(relayed.proposal, relayed.args, described)
        : wrapped !== undefined
          ? readCall({ ...proposal, args: wrapped }, wrapped, described)
          : readCall(proposal, args, described);
    if (relayed !== undefined) facts.relayed = { tool: relayed.proposal.tool, args: relayed.args };
    // Keys the other facts find (a page, an edit's search text, a command) come before this one.
    if (described !== undefined && facts.failureKey === undefined) {
      facts.failureKey = described;
      facts.failureKeyLeavesOutWords = true;
    }
    return facts;
  }

  function readCall(
    proposal: Proposal,
    args: Readonly<Record<string, unknown>>,
    described: string | undefined,
  ): Mutable<CallFacts> {
    const reading = readToolName(proposal.tool);
    const kind = kindOfCall(proposal, reading, configuredKinds);
    // A command names what it runs, its text read once for its target and for what its line does;
    // any other call may carry a patch, read once for its files, what it writes and whether it only
    // adds them.
    const script = kind === 'exec' ? commandText(args) : undefined;
    const line = collapsedLine(script);
    const patch = line === undefined ? patchBody(args) : undefined;
    const facts: Mutable<CallFacts> = {
      actionClass: actionClassOf(kind, reading),
      kind,
      targets: line !== undefined ? [line] : targetsOf(proposal, args, kind, reading.noun, patch),
    };
    if (hasOutsideEffect(proposal, reading, kind, args)) facts.sideEffect = true;
    // A name that says nothing of what the tool does, read as a read only because it names a file:
    // what it does to that file is unknown, so its success may have changed it.
    if (
      reading.kind === undefined &&
      kind === 'read' &&
      facts.targets.length > 0 &&
      !pinnedKind(proposal, configuredKinds)
    )
      facts.mayChangeTargets = true;
    // A tool said to act on nothing (declared so, or named for notes), not one whose name is unread.
    if (kind === 'other' && (reading.kind === 'other' || pinnedKind(proposal, configuredKinds))) {
      facts.actsOnNothing = true;
      // Read so from its name alone: a tool that keeps the agent's own notes (`TodoWrite`, `think`).
      if (!pinnedKind(proposal, configuredKinds)) facts.keepsNotes = true;
    }
    const service = serviceOf(reading, kind, args);
    if (service !== undefined) facts.service = service;
    // A tool said to reach an open world (MCP's `openWorldHint`: a web search, a fetch), one named for
    // the web or an API, or one of a named server's: its answers come from elsewhere.
    if (proposal.annotations?.openWorldHint === true || kind === 'api' || hasQueryOnlyService(facts))
      facts.asksOutside = true;
    if (asksForBackground(args) || (script !== undefined && startsBackgroundJob(script)))
      facts.startsBackgroundWork = true;
    // A change made twice under two descriptions is two changes, whatever it answers.
    if (described !== undefined && !CHANGES.has(kind) && facts.sideEffect !== true)
      facts.answerKey = described;
    // As a step of a walk, a call reworded is the same step, changes included: its answer still counts.
    if (described !== undefined) facts.wordlessKey = described;
    if (kind === 'exec') {
      const command = facts.targets[0];
      // A blank command (`''`, only spaces) runs nothing: it changes nothing and cannot fail.
      if (command === undefined) {
        if (script !== undefined) facts.changesNothing = true;
        // A tool that runs a database's statements (`execute_sql {query}`): a query that only reads
        // computes its answer from the tables and changes nothing another call can see; any other
        // statement's effects stay unknown. Run again, a query is still an attempt, as a command is.
        else if (sqlStatementOf(sqlTextOf(args))?.readsOnly === true) facts.computesOnly = true;
        return facts;
      }
      // What the line does is read as the shell reads it, lines kept: the target collapses them, and
      // a comment on the first line (`# check\nnpm test`) would swallow every command after it.
      const text = script === undefined || script.length > MAX_LINE_CHARS ? command : script;
      // Asking how a job is going is polling: the answer changes by itself while the job runs.
      if (isStatusCheck(text)) facts.kind = 'poll';
      if (asksOutsideMachine(text)) facts.asksOutside = true;
      // A line is read as a Windows shell reads it when its words say so, or when its host runs it in
      // one (a working directory on a drive) and it holds what the shells read apart (`\`, a backtick).
      const windows = readsAsWindowsShell(text) || (WINDOWS_MARKS.test(text) && windowsHost(args));
      const effects = lineEffectsOf(text, windows);
      if (effects.changesOutside) facts.changesOutside = true;
      if (effects.onlyLooks || isReadOnlyCommand(text)) facts.changesNothing = true;
      if (effects.readsFilesOnly) {
        facts.readsFilesOnly = true;
        const asked = queriedFiles(text);
        if (asked !== undefined) facts.asksOf = asked.join('\n');
      }
      if (effects.computesOnly && !facts.changesNothing) facts.computesOnly = true;
      if (effects.writes) facts.writesFiles = true;
      if (effects.changesTree) facts.changesTree = true;
      else if (effects.touchesOnly && effects.touches.length > 0) facts.touches = effects.touches;
      if (leavesSourcesAlone(text)) facts.leavesSourcesAlone = true;
      const scriptRun = scriptFileRun(text);
      if (scriptRun !== undefined) {
        facts.runsScript = true;
        facts.scriptFile = normalizeTarget(scriptRun);
      }
      const wait = waitSecondsOf(text);
      if (wait !== undefined) facts.waitSeconds = wait;
      // The program names the attempt, as the target does: read from the lines as the shell reads
      // them, or else from the collapsed line, so that a heredoc's last line (`EOF`) is never taken
      // for the program; a line that only moves (`cd`) would take the lines after it for its words,
      // so those are read one by one.
      const program = programOfScript(text) ?? programOf(command) ?? programOfLines(text);
      if (program !== undefined) facts.program = program;
      const operandKind = program === undefined ? undefined : operandKindOf(program, effects.readsFilesOnly);
      if (operandKind !== undefined) facts.operandKind = operandKind;
      // A program whose own name says it starts or stops something (`debug_stop`, `connect_start`,
      // `./stop_server.sh`) changes what later calls talk to, as a tool so named does; a subcommand
      // (`npm start`, `docker stop`) is left to what the line's effects say.
      const runs = program?.split(' ')[0];
      if (runs !== undefined && startsOrStopsByName(runs)) facts.startsOrStops = true;
      // A move of the working directory, alone or before commands that only look, is a navigation:
      // relative paths in later calls name other files.
      const movesFirst = startsByChangingDirectory(text);
      if (onlyChangesDirectory(text) || (facts.changesNothing && movesFirst)) facts.navigates = true;
      // A move before commands that do more still leaves the calls after it running elsewhere.
      else if (movesFirst) {
        const place = placeMovedTo(text);
        if (place !== undefined) facts.movesTo = place;
      }
      const directory = directoryAfter(text);
      if (directory !== undefined) facts.directory = directory;
      // Read with its lines kept, as the effects are: collapsed, a comment on one line would swallow
      // the lines after it, and two scripts that open alike would be one attempt.
      if (windows) {
        const attempt = windowsAttemptKey(text);
        if (attempt !== undefined)
          facts.failureKey = attemptFailureKey(proposal.tool, othersFormOf(args), attempt);
        return facts;
      }
      const attempt = commandAttemptKeys(text);
      if (attempt !== undefined) {
        const others = othersFormOf(args);
        facts.failureKey = attemptFailureKey(proposal.tool, others, attempt.key);
        // Its options in any order: the same attempt once two such spellings failed alike.
        facts.respellingKey =
          attempt.respelled === undefined
            ? facts.failureKey
            : attemptFailureKey(proposal.tool, others, attempt.respelled);
        // Its options left out: one attempt where the failure says an operand names nothing. Written
        // out, not hashed: a rule reads it only once a command failed so, and hashes it then.
        facts.optionlessKey = `${proposal.tool}\u0000optionless\u0000${others}\u0000${attempt.optionless ?? attempt.key}`;
        // A ban learned before `--` after an operand was kept holds the key the command had then.
        if (attempt.older !== undefined)
          facts.olderFailureKey = attemptFailureKey(proposal.tool, others, attempt.older);
      }
      return facts;
    }
    // A status check that waits inside itself for what it asks about (`wait {cell_id, yield_time_ms:
    // 10000}`) waits before it answers, as `sleep 10 && check` does: its wait counts toward the gap.
    if (kind === 'poll') {
      const wait = waitSecondsOfArguments(args);
      if (wait !== undefined) facts.waitSeconds = wait;
    }
    // A question to the user: their answer is a message from them.
    if (asksPersonByName(proposal.tool)) facts.asksPerson = true;
    // A tool that starts or stops something (a session, a debugger) changes what later calls talk to.
    if (kind === 'other' && startsOrStopsByName(proposal.tool)) facts.startsOrStops = true;
    if ((kind === 'read' || kind === 'search' || kind === 'other') && navigatesByName(proposal.tool)) {
      facts.navigates = true;
      // A move that names nothing to move to (`goto 120`, `scroll_down`) is a move within the open
      // file: what it means changes when another file is opened.
      if (facts.targets.length === 0) facts.actsOnHiddenState = true;
    }
    // A search naming nothing to search (`search_file parse_header`) looks in the open file or the
    // working directory: what it means changes when the agent navigates.
    if (kind === 'search' && facts.targets.length === 0 && !hasQueryOnlyService(facts))
      facts.actsOnHiddenState = true;
    if (kind === 'read') {
      if (facts.targets.length === 1 && !readsPartially(args)) facts.readsWholeTarget = true;
      const pageKey = pageFailureKey(proposal.tool, args, facts.targets);
      if (pageKey !== undefined) facts.failureKey = pageKey;
      return facts;
    }
    if (kind !== 'mutate' && kind !== 'create') return facts;
    // An edit that names no file (SWE-agent's `edit 12:14`) acts on the file the editor has open.
    if (facts.targets.length === 0) facts.actsOnHiddenState = true;
    const written = writtenTextBeside(args, patch);
    if (written !== undefined) facts.writtenText = written;
    if (kind === 'mutate' && patch === undefined && replacesLinesInPlace(args))
      facts.replacesLinesInPlace = true;
    // A script the agent writes names what a run of it may change (see `script-paths.ts`).
    const [only] = facts.targets;
    if (written !== undefined && facts.targets.length === 1 && only !== undefined && isScriptFile(only)) {
      const names = pathsNamedInScript(written);
      if (names.length > 0) facts.scriptNames = names;
    }
    if (writesWholeFile(args) || (patch !== undefined && patchOnlyAddsFiles(patch))) {
      facts.replacesTarget = true;
      return facts;
    }
    // An edit of one file that needs nothing the file holds may create it: "does not exist" does not
    // rule it out. A move or a copy names two, and needs the first.
    if (kind === 'mutate' && facts.targets.length === 1 && !editsInPlace(args, patch))
      facts.mayCreateTarget = true;
    const searchTexts = kind === 'mutate' ? exactSearchTexts(args) : undefined;
    if (searchTexts !== undefined) {
      facts.searchTexts = searchTexts;
      if (facts.targets.length === 1)
        facts.failureKey = editFailureKey(proposal.tool, facts.targets, searchTexts, args);
    }
    return facts;
  }

  function targetsOf(
    proposal: Proposal,
    args: Readonly<Record<string, unknown>>,
    kind: ActionKind,
    noun: string,
    patch: string | undefined,
  ): string[] {
    if (patch !== undefined) return patchTargets(patch);
    const targets = extractTargets(args, proposal.inputSchema, {
      noun,
      creating: kind === 'create',
      searching: kind === 'search',
    });
    // Every edit changes some file, whatever the tool calls its path argument.
    if (targets.length > 0 || (kind !== 'mutate' && kind !== 'create' && kind !== 'delete')) return targets;
    return editedFilesByName(args).map(normalizeTarget);
  }

  function describeFailure(outcome: Outcome, call: CallFacts): FailureFacts | undefined {
    if (outcome.success) {
      return isUnflaggedRefusal(outcome, call, signatureMatcher())
        ? describeFailure({ ...outcome, success: false }, call)
        : emptyResult(outcome, call);
    }
    if (onlyItsTextFailed(outcome, call)) return LOGGED_BY_A_SERVICE;
    const text = failureText(outcome);
    const args = isRecord(outcome.proposal?.args) ? outcome.proposal.args : {};
    const verdict = withoutListings(withoutEchoes(text, args));
    const exit = typeof outcome.exitCode === 'number' ? exitRule(outcome.exitCode, call, args) : undefined;
    const matched =
      (toolRefusedItsArguments(verdict, outcome.proposal?.tool) ? VALIDATION : undefined) ??
      (containerGoneUnderCall(verdict, args) ? UNAVAILABLE : undefined) ??
      (programGoneUnderCall(verdict, args) ? BROKEN_ENVIRONMENT : undefined) ??
      (fileRacedUnderCall(verdict, args) ? LOCKED : undefined) ??
      structuredRule(outcome, verdict, signatureMatcher()) ??
      (exit?.beforeText ? exit.rule : undefined) ??
      signatureMatcher().match(verdict) ??
      exit?.rule ??
      fallbackRule(outcome, call.kind);
    const read = readByWords(matched, verdict);
    const rule =
      read === TIMEOUT && call.kind === 'exec' && waitedForInput(verdict)
        ? WAITED_FOR_INPUT
        : read.blame === 'harness_fault'
          ? (commandsOwnRule(verdict, args, call) ?? read)
          : read;
    const needle = rule.signature === 'edit_failed' ? needleOf(args, text) : undefined;
    const meaning = meaningOf(rule, call, args, needle, text);
    const retryAfterSeconds =
      rule.blame === 'harness_fault' ? (outcome.retryAfterSeconds ?? parseRetryAfter(text)) : undefined;
    // A test run's failure is one run's: the next may fail another way (see `runsTests`). A sign-in
    // waits for a person, who may act before the next run.
    const varies = runsTestsCall(call) || waitsForPersonCall(call, args);
    // Blamed on the call by its words alone, it proves no more than a failure nobody can blame.
    const fromWords = WORDED_AGENT.has(rule);
    // Built field by field, in the order its fields have always had: spreading a few optional fields
    // into a new object, and the whole into another for the last one, cost more than reading the text.
    const facts: Mutable<FailureFacts> = {
      signature: rule.signature,
      blame: rule.blame,
      deterministic:
        !varies &&
        (rule.deterministic || ((rule.blame === 'unknown' || fromWords) && quotesArguments(text, args))),
      meaning,
    };
    if (varies) facts.varies = varies;
    if (fromWords) facts.blameFromWords = true;
    // The program the line runs, not its subcommand: the name the shell looked up.
    if (call.kind === 'exec' && programNotFound(verdict, call.program?.split(' ')[0] ?? ''))
      facts.programMissing = true;
    if (rule.blame !== 'harness_fault' && refusesOrder(verdict)) facts.awaitsAnotherCall = true;
    if (call.kind === 'create' && opensItsTarget(text, call.targets)) facts.opensTarget = true;
    if (call.operandKind !== undefined && rule.signature === 'file_not_found') facts.missesOperand = true;
    if (rule.blame === 'harness_fault' && sandboxLostUnderCall(verdict, args)) facts.losesWorld = true;
    // A command stopped before it ended may have written part of what it writes.
    if ((rule === TIMEOUT || rule === KILLED) && stoppedWhileWriting(call, args)) facts.mayHaveWritten = true;
    // A line that failed on a missing file and then wrote it (`… > prd.tmp && mv prd.tmp prd.json`).
    else if (call.kind === 'exec' && madeItsMissingFile(verdict, call, args)) facts.mayHaveWritten = true;
    // An install refused because another holds the lock: that one, still running, writes meanwhile.
    // The command is read first: most commands write nothing when stopped, and then the text, up to
    // 8 KB of it, is never searched for a lock.
    else if (stoppedWhileWriting(call, args) && heldByAnotherProcess(verdict)) facts.mayHaveWritten = true;
    if (
      call.failureKey !== undefined &&
      (call.failureKeyLeavesOutWords === true
        ? quotesDescription(text, args)
        : call.searchTexts !== undefined
          ? !searchDidNotApply(rule, meaning, verdict)
          : call.kind === 'read' && !failedForItsPage(rule.signature))
    )
      facts.dependsOnWholeCall = true;
    if (meaning === 'content-missing') {
      // The field is there even when no text was found, as it has always been.
      facts.needle = needle as string;
      return facts;
    }
    if (call.targets.length > 0 && asksToReadFirst(verdict)) {
      facts.curedByReading = true;
      if (changedSinceRead(verdict)) facts.targetChangedSinceRead = true;
      return facts;
    }
    if (retryAfterSeconds !== undefined) {
      facts.retryAfterSeconds = retryAfterSeconds;
      return facts;
    }
    const unavailable =
      rule.blame === 'harness_fault' || meaning !== 'call'
        ? undefined
        : call.optionlessKey !== undefined
          ? missingOperandsOf(verdict, call, args)
          : ASKS_FOR_THINGS.has(call.kind)
            ? unavailableValues(text, args)
            : undefined;
    if (unavailable !== undefined) {
      facts.unavailable = unavailable;
      return facts;
    }
    // A command's arguments are its line: its options are judged by the attempt's key instead.
    const rejected =
      call.kind !== 'exec' && rule.blame !== 'harness_fault'
        ? rejectedArgumentNames(verdict, args)
        : undefined;
    if (rejected !== undefined) {
      facts.rejectedArguments = rejected;
      return facts;
    }
    // A syntax error is cured by editing the file it names, not by any other change to the workspace.
    // A missing npm script or Make target is cured by editing the file that lists them.
    const dependsOnFiles =
      call.kind !== 'exec'
        ? undefined
        : rule.signature === 'syntax_error'
          ? (filesNamedIn(text) ?? sourceFilesRunBy(call.targets[0]))
          : configurationNamedBy(text);
    if (dependsOnFiles === undefined) return facts;
    // Run at the root, the files it names are the workspace's own: the guard can look at them.
    const command = call.targets[0];
    const atRoot = command !== undefined && runsInWorkspaceRoot(command);
    facts.dependsOnFiles = dependsOnFiles;
    if (atRoot) facts.dependsOnFilesAtRoot = true;
    return facts;
  }

  /**
   * The failure the command's own output names, where the environment was blamed for what a script
   * the shell ran before the command printed at the output's head (a profile complaining at every
   * start, `/opt/homebrew/…/shellenv.sh: line 18: /bin/ps: Operation not permitted`): the start-up's
   * complaint is the same under every command, and the line after it (`cat: a.md: No such file or
   * directory`) says how this one went. Only a failure a rule recognises in the rest takes its place.
   */
  function commandsOwnRule(
    verdict: string,
    args: Readonly<Record<string, unknown>>,
    call: CallFacts,
  ): SignatureRule | undefined {
    if (call.kind !== 'exec') return undefined;
    const rest = withoutStartupLines(verdict, commandText(args));
    return rest === verdict || rest.trim() === '' ? undefined : signatureMatcher().match(rest);
  }

  return {
    name: 'tool-call',
    signatures,
    actionClasses: TOOL_CALL_ACTION_CLASSES,
    workspace: toolCallWorkspace,
    normalizeArguments,
    wordsAboutTheCall,
    describeCall,
    describeFailure,
    isNonAdvancing,
    answersNothing,
    answerNamesTool,
    errorShape,
    quotableError: (text) => withoutScriptBanners(withoutPointerLines(text)),
  };
}

/** Kinds of call that change something: each one is its own change, however alike their answers. */
const CHANGES: ReadonlySet<string> = new Set(['mutate', 'create', 'delete']);

/** An editor's header for the file it shows: `[File: /root/ctf/exploit.py (6 lines total)]`. */
const FILE_HEADER = /^\[File: ([^\n\]]+?) \(\d+ lines total\)\]$/m;

/**
 * A refused creation whose answer shows the file it names open in the editor (SWE-agent's `create`
 * of a file that exists: "Error: File 'exploit.py' already exists." and the file's first lines).
 */
function opensItsTarget(text: string, targets: readonly string[]): boolean {
  const target = targets.length === 1 ? targets[0] : undefined;
  if (target === undefined || target === '') return false;
  const shown = FILE_HEADER.exec(text.length > 2_000 ? text.slice(0, 2_000) : text)?.[1];
  if (shown === undefined) return false;
  const name = target.startsWith('./') ? target.slice(2) : target;
  return shown === name || shown.endsWith(`/${name}`);
}

/** The shortest description whose quotation shows a failure is about its words. */
const MIN_QUOTED_DESCRIPTION = 12;

/** Whether a failure's text quotes the call's description: the failure is about its words. */
function quotesDescription(text: string, args: Readonly<Record<string, unknown>>): boolean {
  const description = args.description;
  if (typeof description !== 'string') return false;
  // A sentence, spaces and all, is quoted whole as surely as a name; a word or two could be anyone's.
  const quoted = description.trim();
  return quoted.length >= MIN_QUOTED_DESCRIPTION && quotesValue(text, quoted);
}

/** A shell call whose command line runs a sign-in that waits for a person (see `waitsForPerson`). */
function waitsForPersonCall(call: CallFacts, args: Readonly<Record<string, unknown>>): boolean {
  // Read with its lines kept: collapsed, the lines before the sign-in would read as its arguments.
  const command = commandText(args) ?? call.targets[0];
  return call.kind === 'exec' && command !== undefined && waitsForPerson(command);
}

/** A shell call whose command line runs tests. */
function runsTestsCall(call: CallFacts): boolean {
  const command = call.targets[0];
  return call.kind === 'exec' && command !== undefined && runsTests(command);
}

/**
 * An error that tells the agent to read its target before trying again: the file was not read yet,
 * or changed since it was read ("Read it first", "modified since read", "re-read the file").
 */
const READ_FIRST =
  /\b(?:has not been read|not been read yet|(?:must|should|need to) (?:first )?(?:re-?)?read|read (?:it|the file|the target)(?: again| first)?\b[^\n]{0,40}\b(?:before|first|again)|(?:modified|changed) since (?:it was )?(?:last )?read)\b/i;

/** Where an error asks for a read, if it does: its first 2,000 characters. */
function errorHead(text: string): string {
  return text.length > 2_000 ? text.slice(0, 2_000) : text;
}

function asksToReadFirst(text: string): boolean {
  return READ_FIRST.test(errorHead(text));
}

/**
 * An error that says the target changed after it was read ("modified since read", "modified since
 * it was last read", "changed on disk since"): someone else wrote it, so the read no longer holds.
 */
const CHANGED_SINCE_READ =
  /\b(?:modified|changed)(?: on disk| externally)? since (?:it was |you )?(?:last )?read\b/i;

function changedSinceRead(text: string): boolean {
  return CHANGED_SINCE_READ.test(errorHead(text));
}

/**
 * A failed edit whose error says its search text could not be applied as searched: not found, found
 * more than once, the file missing, or not read since it changed. Any replacement of that text fails
 * the same way. Any other error (what the edit would write was refused by a validator, a hook or a
 * type check; old and new text identical; an error nobody recognises) is known to hold only for this
 * very replacement.
 */
function searchDidNotApply(rule: SignatureRule, meaning: FailureMeaning, verdict: string): boolean {
  if (rule.signature === 'edit_failed') return rule !== EDIT_NOOP;
  return meaning === 'target-missing' || rule === STALE_READ || asksToReadFirst(verdict);
}

/**
 * Calls that act on things they name (a booking's flights, a payment method). A read or a search that
 * found nothing may find it with other options, so what it did not find is not judged here.
 */
const ASKS_FOR_THINGS: ReadonlySet<ActionKind> = new Set(['mutate', 'create', 'delete', 'api']);

/**
 * A command's words its output says do not exist, for a command that does something with them: one
 * that only looks (`npm view`, `kubectl get`, read as changing nothing, or as a status check) is how
 * an agent finds what exists, and stays free. Only a command has an optionless key, so a call asked
 * here is `exec` or, as a status check, `poll`.
 */
function missingOperandsOf(
  verdict: string,
  call: CallFacts,
  args: Readonly<Record<string, unknown>>,
): string[] | undefined {
  if (call.changesNothing === true || call.kind === 'poll') return undefined;
  const command = commandText(args);
  return command === undefined ? undefined : missingOperands(verdict, command);
}

/**
 * Whether a search-and-replace edit fails depends on its file, the text it looks for and how it
 * replaces it (`replace_all`, `expected_replacements`), not on the text it would write: "not found"
 * and "multiple occurrences" say so whatever the replacement, and an edit told to replace every
 * match does not fail as one told to replace one did (other failures of an edit are the whole call's:
 * see `searchDidNotApply`).
 * The texts are in the key by their hash, as arguments are in a call key: a learned ban keeps its
 * key in the state file, which must not hold the contents of the agent's files (nor a secret in
 * them), and a short key is cheap to look up however large the edit.
 */
function editFailureKey(
  tool: string,
  targets: readonly string[],
  searchTexts: readonly string[],
  args: Readonly<Record<string, unknown>>,
): string {
  const key = `${tool}\u0000edit\u0000${targets.join('\u0000')}\u0000#${hashString(searchTexts.join('\u0000'))}`;
  const mode = replacementMode(args);
  return mode === '' ? key : `${key}\u0000${mode}`;
}

/**
 * How an edit replaces what it finds, written as `name=value` pairs in name order: its arguments
 * that are a flag set (`replace_all: true`) or a count other than one (`expected_replacements: 2`),
 * and those of each edit of a list (Windsurf's `AllowMultiple: true` in a chunk), by the edit's place.
 * A flag left unset and a count of one are what a tool does when they are absent, so they write
 * nothing, and an edit without them keeps the key it always had.
 */
function replacementMode(args: Readonly<Record<string, unknown>>): string {
  // Most edits have neither: no list is made for them.
  let mode = modeFlags(args, '', undefined);
  const edits = editList(args);
  if (edits !== undefined)
    for (let index = 0; index < Math.min(edits.length, 64); index++) {
      const edit = edits[index];
      if (isRecord(edit)) mode = modeFlags(edit, `${index}.`, mode);
    }
  return mode === undefined ? '' : mode.sort().join(',');
}

/** `mode` with the flags set and the counts other than one of `record`, each named after `prefix`. */
function modeFlags(
  record: Readonly<Record<string, unknown>>,
  prefix: string,
  mode: string[] | undefined,
): string[] | undefined {
  const keys = Object.keys(record);
  const count = Math.min(keys.length, 64);
  for (let index = 0; index < count; index++) {
    const key = keys[index] as string;
    const value = record[key];
    if (value === true || (typeof value === 'number' && value !== 1 && Number.isFinite(value))) {
      mode ??= [];
      mode.push(`${prefix}${key}=${value}`);
    }
  }
  return mode;
}

/** Arguments of a shell tool that change what the model is told, not what runs. */
const PRESENTATION_ARGUMENTS = new Set(['command', 'cmd', 'commandLine', 'script', 'description', 'timeout']);

/**
 * Spellings of one command that run the same thing (options reordered, output flags, `| tail`)
 * share a learned ban: the attempt, with the tool's other arguments that change what runs (a
 * working directory, `othersFormOf`), by hash, as call keys are.
 */
function attemptFailureKey(tool: string, others: string, attempt: string): string {
  // Masked as call keys are: a timestamp in a branch name does not make another attempt.
  return `${tool}\u0000attempt\u0000#${hashMaskedArgument(`${attempt}\u0000${others}`)}`;
}

/** The shell tool's arguments beside its line that change what runs (a working directory), written out. */
function othersFormOf(args: Readonly<Record<string, unknown>>): string {
  // Most commands have nothing beside their line: no object is made for them.
  let others: Record<string, unknown> | undefined;
  const keys = Object.keys(args);
  const count = Math.min(keys.length, 64);
  for (let index = 0; index < count; index++) {
    const key = keys[index] as string;
    if (!PRESENTATION_ARGUMENTS.has(key)) {
      others ??= {};
      others[key] = args[key];
    }
  }
  return others === undefined ? '{}' : othersForm(others);
}

/**
 * `canonicalJson(others)`, written at once for what a command usually has beside its line: nothing,
 * or one text (a working directory). No walk of the object for those.
 */
function othersForm(others: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(others);
  if (keys.length === 0) return '{}';
  const only = keys.length === 1 ? others[keys[0] as string] : undefined;
  if (typeof only !== 'string') return canonicalJson(others);
  return `{${JSON.stringify(keys[0])}:${JSON.stringify(only)}}`;
}

function toRule(extra: ExtraPattern): SignatureRule {
  const builtIn: SignatureRule | undefined = Object.hasOwn(RULE_OF_SIGNATURE, extra.signature)
    ? RULE_OF_SIGNATURE[extra.signature as ToolCallSignature]
    : undefined;
  return {
    signature: extra.signature,
    blame: extra.blame ?? builtIn?.blame ?? 'unknown',
    deterministic: extra.deterministic ?? builtIn?.deterministic ?? false,
    // A shared global or sticky regex would carry `lastIndex` from one call into the next.
    pattern: new RegExp(extra.pattern.source, extra.pattern.flags.replace(/[gy]/g, '')),
  };
}

/** Only the explicit flag: the engine's own detectors decide what an unchanged result means. */
function isNonAdvancing(outcome: Outcome): boolean {
  const meta = outcome.meta;
  if (meta === undefined || meta === null) return false;
  return NON_ADVANCING_KEYS.some((key) => meta[key] === true);
}

/**
 * What a command's exit status says by itself: a status any program means alike (124, 137, 127…),
 * or one the program whose status the line's is documents (curl's 7: no connection), read only when
 * the text says nothing more specific.
 */
function exitRule(
  code: number,
  call: CallFacts,
  args: Readonly<Record<string, unknown>>,
): { rule: SignatureRule; beforeText: boolean } | undefined {
  const general = ruleForExitCode(code);
  if (general !== undefined || call.kind !== 'exec') return general;
  const command = call.targets[0];
  const rule =
    command === undefined ? undefined : ruleForProgramExit(statusProgram(lineToRead(args, command)), code);
  return rule === undefined ? undefined : { rule, beforeText: false };
}

/**
 * A search or a query that found nothing ("No files found", `[]`). An empty file is an answer, not
 * a miss, so reads do not count. A search tool that raises when it finds nothing (a web search's
 * "No results found! Try a less restrictive/shorter query.") found nothing too: its failure, read
 * as an empty result, is the same answer as the empty list another tool returns.
 */
function answersNothing(outcome: Outcome, call: CallFacts, failure?: FailureFacts): boolean {
  if (call.kind === 'read') return false;
  if (!outcome.success) {
    return (
      failure?.signature === EMPTY.signature &&
      answersAQuestion(call, outcome.proposal) &&
      !isCodeSearch(outcome.proposal, call)
    );
  }
  // A query of a file's content (`jq` over a JSON file) asked a question, whatever else the tool runs.
  if (call.kind === 'exec' && call.asksOf !== undefined) return isEmptyAnswer(outcome.content);
  // "No matches" from a code search for another pattern is exploration: it says where a thing is not.
  return emptyResult(outcome, call) !== undefined && !isCodeSearch(outcome.proposal, call);
}

function emptyResult(outcome: Outcome, call: CallFacts): FailureFacts | undefined {
  if (!answersAQuestion(call, outcome.proposal)) return undefined;
  if (!isEmptyAnswer(outcome.content)) return undefined;
  return {
    signature: EMPTY.signature,
    blame: EMPTY.blame,
    deterministic: EMPTY.deterministic,
    meaning: 'call',
  };
}

/** Longer command lines are read as their collapsed, bounded target. */
const MAX_LINE_CHARS = 16_384;

/** Arguments in which a shell tool names the directory a command runs in (Codex, Gemini CLI, others). */
const WORKING_DIRECTORY_ARGUMENTS = ['workdir', 'dir_path', 'cwd', 'working_directory', 'directory'];

/** What a Windows shell reads otherwise than a POSIX shell in a line of plain words: `\` and the backtick. */
const WINDOWS_MARKS = /[\\`]/;

/** Whether the call's own working directory is on a Windows drive: its host runs a Windows shell. */
function windowsHost(args: Readonly<Record<string, unknown>>): boolean {
  return WORKING_DIRECTORY_ARGUMENTS.some((name) => isWindowsDirectory(args[name]));
}

/** A command line as the shell reads it, lines kept, when it is not too long to read whole. */
function lineToRead(args: Readonly<Record<string, unknown>>, command: string): string {
  const text = commandText(args);
  return text === undefined || text.length > MAX_LINE_CHARS ? command : text;
}

/** Whether a failing command line wrote the file its failure says is missing (see `self-made-file.ts`). */
function madeItsMissingFile(
  verdict: string,
  call: CallFacts,
  args: Readonly<Record<string, unknown>>,
): boolean {
  const command = call.targets[0];
  return command !== undefined && makesWhatItMissed(verdict, lineToRead(args, command), call.touches);
}

/** Whether a command stopped before it ended writes files when it runs (see `stopped-writes.ts`). */
function stoppedWhileWriting(call: CallFacts, args: Readonly<Record<string, unknown>>): boolean {
  const command = call.targets[0];
  return command !== undefined && mayHaveWrittenBeforeStopping(call, lineToRead(args, command));
}

/** What a service logged, printed by a command that worked: nobody's failure, learned from nothing. */
const LOGGED_BY_A_SERVICE: FailureFacts = {
  signature: 'unknown_error',
  blame: 'unknown',
  deterministic: false,
  meaning: 'call',
};

/**
 * A command that prints a service's logs, marked failed with no exit status or error of its own
 * saying so: the errors are in what it printed, and they are the service's.
 */
function onlyItsTextFailed(outcome: Outcome, call: CallFacts): boolean {
  if (call.kind !== 'exec' || outcome.error !== undefined) return false;
  if (typeof outcome.exitCode === 'number' && outcome.exitCode !== 0) return false;
  return printsServiceLogsOf(call.targets[0]);
}

/**
 * Reads, searches and remote reads ask for something, so an empty answer means nothing was found.
 * An empty reply to a command (`mkdir`), an edit, or a remote write (`post_message`) is normal.
 */
function answersAQuestion(call: CallFacts, proposal: Proposal | undefined): boolean {
  if (call.kind === 'read' || call.kind === 'search') return true;
  if (call.kind !== 'api') return false;
  return proposal === undefined || !readToolName(proposal.tool).writes;
}

function failureText(outcome: Outcome): string {
  const error = typeof outcome.error === 'string' ? outcome.error : '';
  const content = typeof outcome.content === 'string' ? outcome.content : '';
  const text = error && content ? `${error}\n${content}` : error || content;
  if (text.length <= MAX_TEXT_SCANNED) return text;
  // Error messages sit at the start (the exception) or at the end (the exit status, the summary).
  const half = MAX_TEXT_SCANNED / 2;
  return `${text.slice(0, half)}\n${text.slice(-half)}`;
}

/**
 * The HTTP status, error code or exception name, when the caller has one. A generic "bad request"
 * (400, `BadRequestError`) gives way to a text that shows the environment failing: providers send
 * spent credit and their own bookkeeping errors as 400s.
 */
function structuredRule(
  outcome: Outcome,
  text: string,
  matcher: SignatureMatcher,
): SignatureRule | undefined {
  const structured = structuredSignal(outcome);
  if (structured !== VALIDATION) return structured;
  const fromText = matcher.match(text);
  return fromText?.blame === 'harness_fault' ? fromText : structured;
}

function structuredSignal(outcome: Outcome): SignatureRule | undefined {
  if (typeof outcome.status === 'number') {
    const byStatus = ruleForStatus(outcome.status);
    if (byStatus) return byStatus;
  }
  if (typeof outcome.errorCode === 'string' && outcome.errorCode !== '') {
    const byCode = ruleForErrorCode(outcome.errorCode);
    if (byCode) return byCode;
  }
  if (typeof outcome.exceptionName === 'string' && outcome.exceptionName !== '') {
    return ruleForException(outcome.exceptionName);
  }
  return undefined;
}

/** The generic rules with the blame the words of a failure give them (see `evidence-words.ts`). */
const WORDED: ReadonlyMap<
  SignatureRule,
  Readonly<Record<'agent_failure' | 'harness_fault', SignatureRule>>
> = new Map(
  [UNRECOGNISED_COMMAND, UNRECOGNISED].map((rule) => [
    rule,
    {
      agent_failure: { ...rule, blame: 'agent_failure', deterministic: false },
      harness_fault: { ...rule, blame: 'harness_fault', deterministic: false },
    },
  ]),
);
const WORDED_AGENT: ReadonlySet<SignatureRule> = new Set(
  [...WORDED.values()].map((rules) => rules.agent_failure),
);

/**
 * A failure that said nothing a rule recognises (or only that it failed) is read by the kinds of
 * words at its ends; any other reading stands.
 */
function readByWords(rule: SignatureRule, verdict: string): SignatureRule {
  const worded = WORDED.get(rule);
  if (worded === undefined) return rule;
  const blame = blameByWords(verdict, rule === UNRECOGNISED_COMMAND);
  return blame === undefined ? rule : worded[blame];
}

function fallbackRule(outcome: Outcome, kind: ActionKind): SignatureRule {
  // JSON-RPC "invalid params" whose text named no missing tool: the arguments were wrong.
  if (outcome.errorCode === '-32602') return VALIDATION;
  return kind === 'exec' ? UNRECOGNISED_COMMAND : UNRECOGNISED;
}

/** `Function main not found in ~/ctf_files/prog`, `symbol 'x' is missing in lib.so`: where it was looked for. */
const LOOKED_FOR_IN =
  /\b(?:not found|(?:does not|doesn't) exist|(?:is )?missing) in (?:the )?(?:file |binary |module )?["'`‘]?([^\s"'`’]+)/gi;

/** Whether an error says something was not found inside the call's one target, naming it. */
function missingInsideTarget(text: string, target: string): boolean {
  const name = lastSegment(target);
  if (name === '') return false;
  let found = false;
  forEachMatch(text, LOOKED_FOR_IN, (match) => {
    found = lastSegment((match[1] as string).replace(/[.,:;)]+$/, '')) === name;
    return found;
  });
  return found;
}

function lastSegment(path: string): string {
  return path.replace(/[/\\]+$/, '').replace(/^.*[/\\]/, '');
}

/**
 * How far a failure generalises. Only a call with one target can say something about that target:
 * with several (`move_file`, `read_multiple_files`) the error does not say which one it meant.
 */
function meaningOf(
  rule: SignatureRule,
  call: CallFacts,
  args: Readonly<Record<string, unknown>>,
  needle: string | undefined,
  text: string,
): FailureMeaning {
  if (rule.onlyThisCall || call.targets.length !== 1) return 'call';
  switch (rule.signature) {
    case 'file_not_found':
      // What was not found was looked for in the target: the target is there.
      if (missingInsideTarget(text, call.targets[0] as string)) return 'call';
      if (call.kind === 'read' || call.kind === 'delete') return 'target-missing';
      return call.kind === 'mutate' && !writesWholeFile(args) && call.mayCreateTarget !== true
        ? 'target-missing'
        : 'call';
    case 'conflict':
      return call.kind === 'create' ? 'target-exists' : 'call';
    case 'edit_failed':
      // A command's target is its line, not a file the text could be added to.
      return needle === undefined || call.kind === 'exec' ? 'call' : 'content-missing';
    default:
      return 'call';
  }
}

/**
 * Arguments asking the host to run the call in the background and answer at once: Claude Code's
 * `run_in_background` (its shell and its subagents), Gemini CLI's and Cursor's `is_background`.
 */
const BACKGROUND_KEYS = ['run_in_background', 'is_background', 'runInBackground', 'isBackground'] as const;

function asksForBackground(args: Readonly<Record<string, unknown>>): boolean {
  return BACKGROUND_KEYS.some((key) => args[key] === true || args[key] === 'true');
}
