/**
 * The vocabulary of the engine. Everything here is plain data so that it can be journaled,
 * snapshotted and sent across processes unchanged.
 */

/** The writable form of one of the readonly shapes below, for code that builds one up. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export type VerdictKind = 'allow' | 'warn' | 'block' | 'halt';

/**
 * A verdict as the journal, replay and traces record it: a guard's verdict, or `coalesced` for a
 * call issued together with an identical one and answered from it (never counted as a refusal).
 */
export type RecordedVerdict = VerdictKind | 'coalesced';

/** Who is at fault for a failure. Only `agent_failure` may ever narrow the agent. */
export type Blame = 'agent_failure' | 'harness_fault' | 'unknown';

/**
 * What a call does to the world, independent of the domain. The engine's invalidation rules are
 * written against these kinds, never against tool names.
 */
export const ACTION_KINDS = [
  'read', // observes a target (read_file, get_issue)
  'search', // observes many targets by pattern (grep, search_files, web_search)
  'mutate', // changes an existing target (edit_file, write_file over an existing file)
  'create', // brings a new target into existence (create_file, git branch, worktree add)
  'delete', // removes a target
  'exec', // runs something whose effects are unknown (bash, run_command)
  'api', // talks to a remote service
  'poll', // asks for the status of something that changes on its own
  'other',
] as const;

export type ActionKind = (typeof ACTION_KINDS)[number];

/** MCP tool annotations, plus narrowing's own hint for tools whose names say nothing. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
  readonly narrowing?: {
    readonly kind?: ActionKind;
    /**
     * Arguments that are free text and do not change what the call does (a command's
     * `description`): the call's identity leaves them out.
     */
    readonly freeText?: readonly string[];
  };
}

/** A tool call the agent wants to make, before it runs. */
export interface Proposal {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly annotations?: ToolAnnotations;
  /** JSON Schema of the tool's input, when known: helps find which arguments name targets. */
  readonly inputSchema?: unknown;
  /** Calls issued together in one model step share a step id; they count once per distinct call. */
  readonly step?: string | number;
  readonly callId?: string;
}

/** What came back from executing a proposal. */
export interface Outcome {
  readonly proposal: Proposal;
  /** False when the call failed (MCP `isError`, a thrown error, a non-zero exit). */
  readonly success: boolean;
  /** The text the tool returned (MCP text content joined), or the error message. */
  readonly content?: string;
  /** An error message that did not come from the tool itself (thrown exception, transport error). */
  readonly error?: string;
  /** Structured facts, used before any text matching. */
  readonly status?: number;
  readonly errorCode?: string;
  readonly exceptionName?: string;
  /**
   * Exit status of a command (shell tools). Read as evidence where it is some: 124 (`timeout(1)`
   * stopped it), 137/143/130 (killed by SIGKILL, SIGTERM, SIGINT: stopped from outside) are the
   * harness's whatever the output says; 126 (not executable) and 127 (command not found) count when
   * the output says nothing more specific. A non-zero status makes an outcome a failure.
   */
  readonly exitCode?: number;
  /** MCP result `_meta`. */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** Seconds the caller was asked to wait (HTTP Retry-After), when the harness said so. */
  readonly retryAfterSeconds?: number;
  /** A progress score for convergence tracking (ML: validation loss or accuracy). */
  readonly score?: number;
  readonly durationMs?: number;
  readonly tokens?: number;
  readonly costUsd?: number;
}

/** The adapter's reading of a proposal. */
export interface CallFacts {
  readonly actionClass: string;
  readonly kind: ActionKind;
  /** Normalised resources the call acts on (paths, URLs, ids, the command line for exec). */
  readonly targets: readonly string[];
  /**
   * The call this one relays, where a host has one tool for every MCP server (`use_mcp_tool
   * {server_name, tool_name, arguments}`): the tool it acts as and that tool's arguments. What is
   * counted of a tool's answers (a tool that keeps finding nothing, a tool's health) counts the
   * relayed tool, not every server's tools behind the relay together; guesses of the tool's name
   * through the relay stay the relay's.
   */
  readonly relayed?: { readonly tool: string; readonly args: Readonly<Record<string, unknown>> };
  /** Numeric or categorical parameters a parameter ban can speak about (ML hyperparameters). */
  readonly parameters?: Readonly<Record<string, number | string | boolean>>;
  /** Text a mutation writes into its target, when known: decides which "not found" bans it can lift. */
  readonly writtenText?: string;
  /**
   * The call writes its target whole (write_file, not edit_file): it works whether or not the target
   * exists, so "does not exist" never rules it out.
   */
  readonly replacesTarget?: boolean;
  /**
   * An edit that needs nothing its target holds (it looks for no text and names no lines): a tool may
   * create the target with it, so "does not exist" does not rule it out.
   */
  readonly mayCreateTarget?: boolean;
  /**
   * An edit that replaces a range of lines with as many lines (SWE-agent's `edit 10:12` given three
   * lines): the file keeps its line numbers, and the range holds the edit's text whatever it held
   * before. Made again in the same order, such edits leave a file as they left it the first time.
   */
  readonly replacesLinesInPlace?: boolean;
  /** A read of its one target in full (no offset, limit or line range): its result is the content. */
  readonly readsWholeTarget?: boolean;
  /** For an edit: the texts it must find, verbatim, in its target (old_string, each oldText). */
  readonly searchTexts?: readonly string[];
  /** A command that only looks (`ls`, `git status`, a test run): running it changes nothing. */
  readonly changesNothing?: boolean;
  /**
   * A call of a tool whose name says neither that it reads nor what it changes, acting on files it
   * names (a binary analyser's `decompile_function {path}`, a design tool's batch operation): read
   * as a read, but its success may have changed those files, as an edit's would.
   */
  readonly mayChangeTargets?: boolean;
  /**
   * The call acts on nothing (kind `other`), and that was said, not guessed: the host or the user
   * declared the tool so, or its name says it keeps the agent's own notes. What it answers depends
   * on its arguments alone. A tool whose name the adapter cannot read is `other` too, without this:
   * it may talk to something that runs (a session, a server) whose answers its calls change.
   */
  readonly actsOnNothing?: boolean;
  /**
   * The call acts on nothing because its tool's name says it keeps the agent's own notes (`think`,
   * `TodoWrite`), not because the host declared it so: writing a note again is harmless.
   */
  readonly keepsNotes?: boolean;
  /**
   * A command whose answer is what the workspace's files hold (`ls`, `cat a.py`, `git diff`), not
   * what processes, services or the clock say: asked again with nothing changed, it answers as before.
   */
  readonly readsFilesOnly?: boolean;
  /**
   * What the command's program fetches by the operand it is given, when it is one of several programs
   * that do the same: `'file'` for those that print what a file holds (`cat`, `sed -n`, `head`; not
   * those that list folders or search them, `ls`, `find`, `grep`), `'address'` for those that fetch
   * what an address holds (`curl`, `wget`). An operand that is not there is a guess, whichever such
   * program was given it.
   */
  readonly operandKind?: string;
  /**
   * A command that only computes (`python3 -c "import base64; print(…)"`): it changes nothing
   * another call can see, though what it answers is new each time its code is.
   */
  readonly computesOnly?: boolean;
  /**
   * The part of the call that decides whether it fails, when that is less than all its arguments:
   * an edit fails or not by the text it searches for, whatever it would put in its place. Calls
   * with the same `failureKey` share a learned ban on the call.
   */
  readonly failureKey?: string;
  /**
   * The `failureKey` an earlier build gave the same call, set only where it differs: a ban a stored
   * state holds under it is found by it, and keyed anew (see `KEY_GENERATION`).
   */
  readonly olderFailureKey?: string;
  /**
   * `failureKey` leaves out words that may be only about the call (a prose description): a failure
   * that quotes them was about them, and is not shared with calls that word them otherwise.
   */
  readonly failureKeyLeavesOutWords?: boolean;
  /**
   * The call's words as every spelling of the same attempt gives them, where the adapter can tell
   * (a command line: its program without the runner or interpreter that starts it, its operands in
   * order, its options as one set, without variables that only tune it). Two calls of a tool that
   * share it and failed alike, nothing having changed in between, are one attempt seen failing
   * twice, however it was spelled; a third spelling is then blocked (`respelled-command`).
   */
  readonly respellingKey?: string;
  /**
   * The call's words with its options left out, where the adapter can tell (a command line: its
   * program and its plain words in order). Spellings that share it differ only in their options,
   * which cannot make exist what a failure said does not (`unavailable`).
   */
  readonly optionlessKey?: string;
  /**
   * For a command that asks a question of files' content (a `jq` query of a JSON file): those files.
   * Its empty answers count toward a streak of questions asked of them, not of every command the
   * tool runs, and only such questions are switched off when the streak trips.
   */
  readonly asksOf?: string;
  /**
   * The part of the call that decides what it answers, when the adapter knows the rest may be only
   * words about it (a reworded description): calls under the same key that get the same answer are
   * the same attempt, and a repeated answer is counted under it.
   */
  readonly answerKey?: string;
  /**
   * The call's key without words that may be only about it (a prose description), whatever the call
   * does: set where its identity holds such words. A walk through states compares its steps under
   * it, so that rewording a step does not make it another step.
   */
  readonly wordlessKey?: string;
  /**
   * The call acts on state its arguments do not name (an editor's "open file", a shell's working
   * directory): two such calls are the same call only while nothing else has run in between.
   */
  readonly actsOnHiddenState?: boolean;
  /**
   * A command that writes only outputs (a test run, a type check, a build): the files it reads are
   * as they were after it ran, whatever else its run may have changed.
   */
  readonly leavesSourcesAlone?: boolean;
  /**
   * Success does something outside that doing it again would do again (a booking, a message, a
   * payment, a new record): an identical second call is a duplicate, not a retry.
   */
  readonly sideEffect?: boolean;
  /**
   * The outside service whose state the call reads or changes, when it names no file (a booking
   * system, a GitHub server). Calls with the same value share that state: a side effect through the
   * service (a cancellation, a sent message) may change what its other calls return.
   */
  readonly service?: string;
  /**
   * What the call answers comes from outside this machine (a web page, a remote API, a cloud
   * service, a package registry): it may change by itself, with nothing the agent did. Asked again
   * after minutes, it is a new question.
   */
  readonly asksOutside?: boolean;
  /**
   * Seconds the call waits before it asks anything, or instead (`sleep 30`, `sleep 30 && gh run
   * view 42`): time between status checks that a clock without timestamps does not show.
   */
  readonly waitSeconds?: number;
  /**
   * The call starts work that goes on after it answers (a subagent or a command run in the
   * background, a job sent to the background in a shell line): until the agent hears back, the
   * world may change without any call of its own.
   */
  readonly startsBackgroundWork?: boolean;
  /**
   * For a command: the program and subcommand it runs (`cargo build`, `npm run`, `git push`), past
   * `cd`, environment assignments and wrappers. Guesses are counted per program.
   */
  readonly program?: string;
  /**
   * The call moves what later calls see without changing any file: it opens another file in an
   * editor, goes to a line, scrolls, changes directory. Later calls with the same arguments may
   * mean other things, so it counts as a change for loop detection.
   */
  readonly navigates?: boolean;
  /**
   * The call puts a question to the person at the keyboard and returns their answer: its success is a
   * message from the user, who may have acted on the machine before answering.
   */
  readonly asksPerson?: boolean;
  /**
   * The call starts, stops or restarts something that runs (a session, a server, a debugger): what
   * later calls talk to is new, which no file shows. Its success is a change of unknown effects.
   */
  readonly startsOrStops?: boolean;
  /**
   * For a command that moves the working directory: where it leaves it, when the line names the
   * place in full; `''` when it moves somewhere the line does not say.
   */
  readonly directory?: string;
  /**
   * For a line that starts by changing directory and then runs more (`cd apps/web && pnpm build`):
   * the place its move names, as written. In a shell that keeps its directory, the calls after it
   * run there.
   */
  readonly movesTo?: string;
  /**
   * For a command: the files it writes, creates, moves or removes, when every part of it was read
   * (`sed -i`, a redirection, `tee`, `mv`, `rm`, `mkdir`): these changed, and nothing else did.
   */
  readonly touches?: readonly string[];
  /**
   * For a command: it writes a file, whether or not the path it writes could be read (`chmod +x
   * ~/solve.py`, `cp out.txt $DEST`): running it again writes again.
   */
  readonly writesFiles?: boolean;
  /**
   * The call may have changed any file of the workspace, beyond what its arguments name: a branch
   * switch, a reset, a stash, an applied patch. Every ban learned against the old files may be stale.
   */
  readonly changesTree?: boolean;
  /**
   * For a command: it may change something outside this machine (a push, a publish, a deploy, a
   * request that writes, a forge's or a cluster's command that is not a read): what the services the
   * agent's other tools talk to answer may differ after it.
   */
  readonly changesOutside?: boolean;
  /**
   * For a command: it runs one program file and does nothing else (`python3 solve.py`, `./check`):
   * what it does is the file's, so the same line does the same until something changes.
   */
  readonly runsScript?: boolean;
  /** For a command that runs one program file (`runsScript`): that file, as the line names it. */
  readonly scriptFile?: string;
  /**
   * For a write or an edit of a script file: the files the text it writes names in quotes
   * (`readFileSync('routes/webhooks.js')`), which a later run of the script may change.
   */
  readonly scriptNames?: readonly string[];
}

/**
 * How a failure generalises beyond the exact call:
 * - `target-missing`: the target does not exist, so reads, mutations and deletes of it fail;
 * - `target-exists`: the target already exists, so creating it fails;
 * - `content-missing`: a piece of text (`needle`) is not in the target;
 * - `call`: nothing beyond this exact call against unchanged state.
 */
export type FailureMeaning = 'target-missing' | 'target-exists' | 'content-missing' | 'call';

/** The adapter's reading of a failed outcome. */
export interface FailureFacts {
  readonly signature: string;
  readonly blame: Blame;
  /** Same call against unchanged state fails the same way: one failure corroborates itself. */
  readonly deterministic: boolean;
  readonly meaning: FailureMeaning;
  readonly needle?: string;
  /** Monotone parameters and the direction in which failure grows (OOM: larger is worse). */
  readonly monotone?: readonly { readonly parameter: string; readonly direction: 'up' | 'down' }[];
  /**
   * The failure depends on the monotone parameters alone (memory does not depend on the learning
   * rate), so the ban need not pin the other parameters to their failing values.
   */
  readonly monotoneOnly?: boolean;
  readonly retryAfterSeconds?: number;
  /**
   * For a command: the files the failure is about (a syntax error names its file). Only a change of
   * these, or of project configuration, can cure it; without this, it depends on every file.
   */
  readonly dependsOnFiles?: readonly string[];
  /**
   * Values of the call's own arguments that the error says do not exist or are not available
   * ("flight HAT217 not available on date 2024-05-18"): asking for them again fails the same way.
   */
  readonly unavailable?: readonly string[];
  /**
   * The program the call's command runs was not found (`bash: apply_patch: command not found`): the
   * name was a guess. Names sharing a word (`apply_patch`, `apply-patch`, `codex-apply-patch`) are
   * guesses at one program, and count together toward a streak of guesses.
   */
  readonly programMissing?: boolean;
  /**
   * Names of the call's own arguments that the error says the tool does not accept ("Unrecognized
   * key(s) in object: 'task_progress'", "got an unexpected keyword argument 'verbose'"): any call
   * passing them fails the same way, whatever their values.
   */
  readonly rejectedArguments?: readonly string[];
  /**
   * The files in `dependsOnFiles` are the ones a probe of the workspace finds under those names (the
   * command did not run in another directory), so their content can be checked in a later session.
   */
  readonly dependsOnFilesAtRoot?: boolean;
  /**
   * The error tells the agent to read the target first ("read it first", "modified since read"):
   * reading it in full is what the failure asked for, so it earns the call one retry.
   */
  readonly curedByReading?: boolean;
  /**
   * The error says the target changed after the agent read it (another writer: the user, a
   * formatter, a linter): what was read of it no longer says what is in it.
   */
  readonly targetChangedSinceRead?: boolean;
  /**
   * The failure is about arguments the call's `failureKey` leaves out (what an edit would write, not
   * the text it searches for): only the whole call fails again, so its ban is on the whole call.
   */
  readonly dependsOnWholeCall?: boolean;
  /**
   * The blame was read from the kinds of words the failure holds, not from an error the adapter
   * recognises: it says whose fault the failure is, and proves no more than a failure of unknown
   * blame does (see `provesAgentFault`).
   */
  readonly blameFromWords?: boolean;
  /**
   * What the call answers is not a function of the state the guard sees (a test run: services,
   * browsers, clocks, order; a sign-in that waits for a person to scan a code): one failure is never
   * enough to ban it, whatever the policy's thresholds.
   */
  readonly varies?: boolean;
  /**
   * The error refuses the call because another must run before it ("only follows", "call it first"):
   * it is about the order of the calls, so any other call that succeeds since lifts the ban.
   */
  readonly awaitsAnotherCall?: boolean;
  /**
   * The call was refused but left its one target open in the editor, as an editor's `create` of a
   * file that exists shows it: an edit that names no file now changes that one.
   */
  readonly opensTarget?: boolean;
  /**
   * A command that fetches what its operand names (`CallFacts.operandKind`) failed because what it
   * was given is not there (`cat docs/a.md`, `sed -n 1,80p docs/a.md`: no such file; `curl -fO
   * https://…/v1.2.tar.gz`: 404): a guessed path or address.
   */
  readonly missesOperand?: boolean;
  /**
   * The environment the calls run in is gone from under the call (a sandbox's container removed or
   * stopped): whatever runs next runs in one made anew, or nowhere, so nothing learned against the
   * one that was lost holds.
   */
  readonly losesWorld?: boolean;
  /**
   * The call was stopped before it ended (a timeout, a kill) and writes when it runs (an install, a
   * scaffolder, a redirection, `mkdir`): it may have made part of its change before it stopped, so
   * what depended on what it writes is relieved as after its success. Its failure stays the
   * environment's.
   */
  readonly mayHaveWritten?: boolean;
}

/**
 * What an adapter knows about the workspace a domain's calls act on, which the engine needs to tell
 * which bans a change may cure. Without it, no path is generated or configuration, and a command
 * names what its text contains.
 */
export interface WorkspaceKnowledge {
  /** A target that build steps regenerate: any command with unknown effects may cure a ban on it. */
  isGenerated(target: string): boolean;
  /** A target that changes how every command behaves (a manifest, compiler configuration). */
  isConfiguration(target: string): boolean;
  /** Whether a command line names a target. */
  mentions(command: string, target: string): boolean;
  /** Whether a failure signature says a file was missing: creating a file may cure it. */
  isAboutMissingFile(signature: string): boolean;
  /** The targets a command line may name, normalised as the adapter normalises targets. */
  targetsIn(command: string): readonly string[];
  /**
   * What a command line acts on (a container, a service, a file), not its program, subcommand or
   * flags: a command of unknown effects on one of them may have changed what another command on it
   * sees.
   */
  operandsIn?(command: string): readonly string[];
  /**
   * The program `path` is a file of (its installed package, its settings folder), if any: a change of
   * it may change what a command running that program does, whichever files the command names.
   */
  programHolding?(path: string): string | undefined;
  /** Whether a command line runs or names `program` (an answer of `programHolding`). */
  runsProgram?(command: string, program: string): boolean;
}

/**
 * A domain adapter translates domain signals into the engine's language. The core never
 * inspects tool names or error texts itself.
 */
export interface DomainAdapter {
  readonly name: string;
  /** Every failure signature this adapter can produce, in priority order. */
  readonly signatures: readonly string[];
  /** Every action class this adapter can produce. */
  readonly actionClasses: readonly string[];
  /** What the adapter knows about the workspace its calls change. */
  readonly workspace?: WorkspaceKnowledge;
  /**
   * The arguments as the call is identified: two spellings of one call (spacing in a command, `./`
   * before a path) brought to one. The same object when nothing changes.
   */
  normalizeArguments?(args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>>;
  /**
   * The arguments that are words about the call, not part of it (an `explanation` beside a booking's
   * fields, a `description` beside a command), besides those the tool declares: left out of
   * everything the call is judged by. `inputSchema` is the tool's own, where it is known.
   */
  wordsAboutTheCall?(args: Readonly<Record<string, unknown>>, inputSchema?: unknown): readonly string[];
  describeCall(proposal: Proposal): CallFacts;
  /** `undefined` when the outcome is not a failure. */
  describeFailure(outcome: Outcome, call: CallFacts): FailureFacts | undefined;
  /** The tool flagged the result as carrying nothing new (MCP `_meta`). */
  isNonAdvancing?(outcome: Outcome, call: CallFacts): boolean;
  /**
   * A search or query that found nothing (`[]`, "No matches found"): nothing new either. `failure`
   * is what `describeFailure` read of the same outcome: a search may report finding nothing as its
   * failure.
   */
  answersNothing?(outcome: Outcome, call: CallFacts, failure?: FailureFacts): boolean;
  /**
   * A success whose answer names the call's own tool: a tool that confirms before it acts answers
   * with what it will do and asks for itself again. Asked only of calls with an outside effect.
   */
  answerNamesTool?(outcome: Outcome): boolean;
  /**
   * The shape of an error text: the text with the values a call put into it masked, so one error
   * for varied arguments is one shape. Without it the engine uses its own, which knows no error texts.
   */
  errorShape?(text: string): string;
  /**
   * The words of a failure that evidence keeps and a reason quotes: the text without what says
   * nothing about the failure (lines that only point to a log or a help page). Without it, the text.
   */
  quotableError?(text: string): string;
}

export type ConstraintType = 'banned_strategy' | 'radius_limit' | 'parameter_ban';
export type ConstraintScope = 'call' | 'target' | 'strategy' | 'parameter';

/** Why a constraint exists: the calls and errors that taught it. */
export interface Evidence {
  readonly failures: number;
  readonly firstAt: number;
  readonly lastAt: number;
  readonly lastError: string;
  /** Short descriptions of the calls that failed, newest last (bounded). */
  readonly calls: readonly string[];
  /** What was masked in the arguments before comparing (timestamp, uuid, …). */
  readonly masked?: readonly string[];
  /**
   * The digest of the last failure's whole answer, volatile parts masked: a repeat corroborates an
   * uncorroborated failure only when it answered alike (see `Learner.learnCall`).
   */
  readonly answer?: string;
  /**
   * The digest of the same answer with its numbers left out as well (see `digestWithoutNumbers`):
   * a repeat whose answer differs from `answer` only in counters, pids or sizes answered alike.
   */
  readonly answerWithoutNumbers?: string;
}

export interface ParameterRegion {
  /** Exact values (a categorical or a single point). */
  readonly equals?: Readonly<Record<string, number | string | boolean>>;
  /** Inclusive lower bounds: the region where every listed parameter is at least this large. */
  readonly atLeast?: Readonly<Record<string, number>>;
  /** Inclusive upper bounds. */
  readonly atMost?: Readonly<Record<string, number>>;
}

/** A learned, enforceable fact about what will fail. */
export interface Constraint {
  readonly id: string;
  readonly type: ConstraintType;
  readonly scope: ConstraintScope;
  readonly signature: string;
  readonly actionClass: string;
  readonly tool?: string;
  /** Call scope: the masked call key. */
  readonly callKey?: string;
  /**
   * Call scope: the generation the call key was computed in (see `KEY_GENERATION`); absent in state
   * written before format version 3, whose keys are found by computing them as it did.
   */
  readonly keyHash?: number;
  /** Target scope (and call scope, for invalidation). */
  readonly target?: string;
  /** Target scope: the kinds of action on the target that are ruled out. */
  readonly blocksKinds?: readonly ActionKind[];
  /** How the failure generalised: decides which changes of the target can lift the ban. */
  readonly meaning?: FailureMeaning;
  /**
   * content-missing: the text that was not found; lifted only by a mutation that may add it. Held in
   * memory only, for the session that learned it: it may be a secret the agent tried to edit.
   */
  readonly needle?: string;
  /**
   * content-missing, as kept on disk and shared: a hash of the text not found and a short redacted
   * excerpt of it. A ban read back without its `needle` is lifted by any change of its target.
   */
  readonly needleHash?: string;
  readonly needleExcerpt?: string;
  /** Call constraints on exec depend on the whole workspace... */
  readonly dependsOnWorkspace?: boolean;
  /** ...unless the failure was about particular files. */
  readonly dependsOnFiles?: readonly string[];
  /**
   * What those files held when the call last failed, by the probe's digest: the ban persists across
   * sessions and is lifted as soon as any of them holds something else.
   */
  readonly fileDigests?: Readonly<Record<string, string>>;
  /**
   * Call constraints on a call to an outside service: a side effect through that service (a
   * cancellation may free a seat) may cure them, whatever else it changed.
   */
  readonly dependsOnService?: string;
  readonly region?: ParameterRegion;
  /** radius_limit: the largest number of targets one call may touch. */
  readonly radius?: number;
  readonly evidence: Evidence;
  readonly createdAt: number;
  readonly expiresAt: number;
  /** How many times this ban was re-imposed after a failed probation retry. */
  readonly strikes: number;
  /** Expired and allowed one retry; a repeat failure re-bans it for longer. */
  readonly probation: boolean;
  readonly persistent: boolean;
  /** Where the constraint holds (repository, host, GPU, model). Shared only where it matches. */
  readonly context?: Readonly<Record<string, string>>;
  /** The error told the agent to read the target first: a full read of it since gives one retry. */
  readonly curedByReading?: boolean;
}

/** One reason a proposal is not simply allowed. */
export interface Violation {
  readonly rule: string;
  readonly severity: Exclude<VerdictKind, 'allow'>;
  /** One or two sentences for the model. */
  readonly reason: string;
  /** What to do instead. */
  readonly suggestion: string;
  readonly evidence: ViolationEvidence;
  readonly constraint?: Constraint;
}

export interface ViolationEvidence {
  /** How many earlier calls support this verdict. */
  readonly count: number;
  readonly lastError?: string;
  /** Short descriptions of the earlier calls. */
  readonly calls?: readonly string[];
  readonly masked?: readonly string[];
  readonly [key: string]: unknown;
}

export type ConvergenceState = 'progressing' | 'plateau' | 'exhausted';

export interface ConvergenceReport {
  readonly state: ConvergenceState;
  readonly bestScore?: number;
  readonly lastImprovementStep?: number;
  readonly steps: number;
  readonly reason: string;
}

export interface CheckResult {
  readonly allowed: boolean;
  readonly verdict: VerdictKind;
  readonly violations: readonly Violation[];
  /** The deciding violation, first in `violations`, absent when allowed without a note. */
  readonly rule?: string;
  readonly reason?: string;
  readonly suggestion?: string;
  /** True when enforcement is advisory and this verdict was softened from block or halt. */
  readonly softened?: boolean;
  readonly activeConstraints: number;
  readonly radiusLimit: number;
  /** Share of the distinct calls proposed so far that are currently ruled out (0..1). */
  readonly searchSpaceReduction: number;
}

export interface ClassifiedOutcome {
  readonly success: boolean;
  readonly tool: string;
  readonly actionClass: string;
  readonly kind: ActionKind;
  readonly targets: readonly string[];
  readonly signature?: string;
  readonly blame: Blame | 'none';
  readonly nonAdvancing: boolean;
  /** Digest of the masked result content. */
  readonly resultDigest: string;
}

export interface RecordResult {
  readonly outcome: ClassifiedOutcome;
  readonly newConstraints: readonly Constraint[];
  readonly liftedConstraints: readonly Constraint[];
  readonly activeConstraints: number;
  readonly radiusLimit: number;
  readonly convergence: ConvergenceReport;
  readonly receiptHash?: string;
}

/** Time comes in through this so that replay is deterministic. Milliseconds. */
export interface Clock {
  now(): number;
}

/** Events the engine emits for the journal and the receipt chain. */
export type JournalEvent =
  | { readonly type: 'session'; readonly sessionId: string; readonly at: number }
  | { readonly type: 'run'; readonly reason: 'user' | 'compact' | 'reset'; readonly at: number }
  | {
      readonly type: 'proposal';
      readonly at: number;
      readonly tool: string;
      readonly callKey: string;
      readonly args: unknown;
      readonly verdict: RecordedVerdict;
      readonly rule?: string;
      readonly reason?: string;
      /** The learned constraints behind the verdict, when it rests on some (to lift them if disputed). */
      readonly constraintIds?: readonly string[];
    }
  | {
      readonly type: 'outcome';
      readonly at: number;
      readonly tool: string;
      readonly callKey: string;
      readonly success: boolean;
      readonly signature?: string;
      readonly blame: Blame | 'none';
      readonly resultDigest: string;
      readonly error?: string;
    }
  | { readonly type: 'constraint_added'; readonly at: number; readonly constraint: Constraint }
  | {
      readonly type: 'constraint_lifted';
      readonly at: number;
      readonly constraint: Constraint;
      readonly why: string;
    };

/**
 * Where the engine sends journal events. Implemented outside the core (file journal, receipts).
 * `record` must be cheap and must not block on I/O: it returns the event's sequence number, and
 * the receipt hash is computed in batches, or on demand by `receiptHash`.
 */
export interface AuditSink {
  record(event: JournalEvent): number | undefined;
  receiptHash?(sequence: number): string | undefined;
  verify?(): ReceiptVerification;
  flush?(): Promise<void>;
  close?(): Promise<void>;
}

export interface ReceiptVerification {
  readonly ok: boolean;
  readonly count: number;
  /** Sequence number of the first receipt that does not verify. */
  readonly brokenAt?: number;
  readonly problem?: string;
}

/** A lifted constraint, remembered for a while so that merging with an older copy cannot revive it. */
export interface LiftedMark {
  readonly id: string;
  readonly at: number;
}

/**
 * What outlives a process: learned constraints (scope `persistent`). Constraint ids are derived
 * from what a constraint says, so two processes that learn the same thing agree on its id.
 */
export interface PersistedState {
  readonly version: 1;
  readonly savedAt: number;
  readonly constraints: readonly Constraint[];
  readonly lifted: readonly LiftedMark[];
}

/** A full snapshot: the persistent part plus the session's run state (detector counters, budget). */
export interface EngineSnapshot extends PersistedState {
  readonly sessionId: string;
  readonly session: unknown;
}

/**
 * Where persistent state lives. `save` schedules a write and returns at once: the hot path never
 * waits on disk or network. A save may hold only what changed since the engine's last write, so
 * implementations merge it into what they hold, and with what other processes wrote; a constraint
 * goes only when a lifted mark says so.
 */
export interface StateStore {
  load(): PersistedState | undefined;
  /**
   * A function is called only when the write happens, so exporting a large state costs nothing on
   * the hot path, however often the engine says something changed.
   */
  save(state: PersistedState | (() => PersistedState)): void;
  /** Writes what is pending; resolves to the merged state now on the store, if it changed. */
  flush(): Promise<PersistedState | undefined>;
  close(): Promise<void>;
  /**
   * Stores shared with other processes or machines call `listener` with what the others learned or
   * lifted, as it arrives (a partial state: only what changed). Returns what stops listening.
   */
  subscribe?(listener: (changes: PersistedState) => void): () => void;
}

/**
 * A look at the world the engine cannot take itself (the core has no I/O). Asked only when a ban on
 * a target's existence is about to block, so that a file created or deleted outside the agent's
 * view (by the user, by another tool) does not keep a stale ban alive. `undefined`: cannot tell.
 */
export interface WorldProbe {
  exists(target: string): boolean | undefined;
  /**
   * A digest of what the file at `target` holds (`FILE_MISSING` when there is none), for bans that
   * depend on a file's content: asked when such a ban is learned and before it blocks.
   */
  digest?(target: string): string | undefined;
  /**
   * A cheap stamp of the file at `target` (its size and time of change, say), which moves whenever
   * the file is written: asked before each read of one file and each command naming files, to tell
   * a change made outside the agent's view. Undefined when it cannot tell.
   */
  stamp?(target: string): string | undefined;
}

/** The digest a probe gives a file that does not exist. */
export const FILE_MISSING = 'missing';
