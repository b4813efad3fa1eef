/**
 * Which kind of action a tool call is, from (in order) narrowing's own annotation, the adapter's
 * configured kinds, MCP annotations, the tool's name, and the shape of its arguments.
 */
import type { ActionKind, Proposal } from '../../core/types.js';
import { isFreeTextKey } from './free-text-keys.js';
import { nameReadings, serverOf } from './tool-names.js';

/** The paper's seven action classes, plus `other` for tools that act on nothing (todo lists, plans). */
export const TOOL_CALL_ACTION_CLASSES = [
  'file_read',
  'file_edit',
  'file_create',
  'shell_exec',
  'search',
  'api_call',
  'delete',
  'other',
] as const;

export type ToolCallActionClass = (typeof TOOL_CALL_ACTION_CLASSES)[number];

const CLASS_BY_KIND: Readonly<Record<ActionKind, ToolCallActionClass>> = {
  read: 'file_read',
  search: 'search',
  mutate: 'file_edit',
  create: 'file_create',
  delete: 'delete',
  exec: 'shell_exec',
  api: 'api_call',
  poll: 'api_call',
  other: 'other',
};

type Family = 'read' | 'mutate' | 'create' | 'delete' | 'exec' | 'search' | 'api';

function words(kind: Family, list: string): [string, Family][] {
  return list.split(' ').map((word) => [word, kind]);
}

const FAMILY_BY_WORD = new Map<string, Family>([
  ...words(
    'read',
    'read get view cat open fetch list show ls head tail stat describe inspect load download tree info ' +
      'print display peek retrieve diff log',
  ),
  ...words(
    'mutate',
    'edit replace patch update write apply modify set save rename move mv append insert put change ' +
      'upsert overwrite commit push merge checkout reset editor',
  ),
  ...words('create', 'create new add mkdir touch branch worktree clone init fork generate scaffold copy cp'),
  ...words('delete', 'delete remove rm unlink drop destroy purge erase rmdir del'),
  ...words('exec', 'bash shell exec execute run command commands terminal cmd sh zsh powershell pwsh eval'),
  ...words('search', 'search grep find glob query lookup locate rg'),
  ...words('api', 'http https api url webhook curl wget request post send invoke graphql endpoint'),
  // Transactions with a service: a booking or a payment is a remote call that changes something.
  ...words(
    'api',
    'book reserve cancel transfer pay purchase buy order refund charge submit schedule invite register ' +
      'subscribe unsubscribe publish notify email enroll',
  ),
]);

/** Words that turn a read into a remote call (`WebFetch`, `get_url`, `http_get`). */
const REMOTE_WORDS = new Set([
  'web',
  'http',
  'https',
  'url',
  'uri',
  'api',
  'webhook',
  'curl',
  'wget',
  'graphql',
]);

/** Tools that keep the agent's own notes: they touch no resource the engine could learn about. */
const BOOKKEEPING_WORDS = new Set([
  'todo',
  'todos',
  'plan',
  'think',
  'thinking',
  'thought',
  'sequentialthinking',
  'memory',
  'slash',
]);

/**
 * Poll tools ask about something that changes on its own, so an unchanged answer is not a loop until
 * it has been unchanged for long. A name polls when it carries a status word (`get_job_status`,
 * `wait_for_deployment`, `health_check`), reads the output of a running process (`BashOutput`), or
 * reads a job-like thing or several (`get_job`, `describe_operation`, `get_check_runs`); never when it also
 * writes (`update_status`).
 */
const POLL_WORDS = new Set([
  'status',
  'poll',
  'polling',
  'wait',
  'progress',
  'health',
  'healthcheck',
  'heartbeat',
]);
const OUTPUT_WORDS = new Set(['output', 'logs']);
const PROCESS_WORDS = new Set(['bash', 'shell', 'terminal', 'command', 'task', 'job', 'process']);
const JOB_READ_WORDS = new Set(['get', 'check', 'describe', 'show', 'fetch']);
const JOB_WORDS = new Set(['job', 'operation', 'deployment', 'build', 'run', 'workflow', 'pipeline']);
const FILE_WORDS = new Set(['file', 'files', 'path', 'dir', 'directory', 'folder']);
const JOINERS = new Set(['or', 'and']);
/**
 * Words naming a running program's standard input (`write_stdin`): what the text typed there does is
 * the program's business, so the call runs something, whatever its verb; typing nothing only reads
 * what the program printed since (see `kindOfCall`).
 */
const INPUT_STREAM_WORDS = new Set(['stdin']);
/**
 * Words that open a question (`can_send_mms`, `is_deleted`, `has_access`, `should_retry`): a name
 * that begins with one asks whether something holds or may be done, and does none of what the verbs
 * after it say. Not `do`, which commands (`do_transfer`).
 */
const QUESTION_WORDS = new Set([
  'can',
  'could',
  'is',
  'are',
  'was',
  'were',
  'has',
  'have',
  'does',
  'did',
  'should',
]);
/** Remote verbs that change something on the other side: an empty reply to them is not "nothing found". */
const REMOTE_WRITE_WORDS = new Set(['post', 'send', 'invoke', 'publish', 'notify']);
/**
 * Verbs whose success does something outside that doing it again would do twice: a second booking,
 * message or payment, a second issue or comment. Not `invoke` (a function may be run for its answer)
 * nor edits, which set a state that setting again leaves as it is.
 */
const EFFECT_WORDS = new Set([
  'create',
  'add',
  'new',
  'fork',
  'post',
  'send',
  'publish',
  'notify',
  'email',
  'book',
  'reserve',
  'cancel',
  'transfer',
  'pay',
  'purchase',
  'buy',
  'order',
  'refund',
  'charge',
  'submit',
  'schedule',
  'invite',
  'register',
  'subscribe',
  'unsubscribe',
  'enroll',
]);

/** Most consequential first: a name that joins two verbs (`create_or_update`) gets the heavier one. */
const WEIGHT: Readonly<Record<Family, number>> = {
  delete: 7,
  mutate: 6,
  create: 5,
  exec: 4,
  api: 3,
  search: 2,
  read: 1,
};

/** What a tool's name says, computed once per name. */
export interface NameReading {
  /** `undefined` when the name says nothing about what the tool does. */
  readonly kind: ActionKind | undefined;
  /** The class a poll keeps: reading a file, or asking a remote service. */
  readonly pollClass: ToolCallActionClass;
  /** The words that are not verbs (`issue` in `get_issue`): what a bare `id` refers to. */
  readonly noun: string;
  /** The name carries a verb that changes something (`post_message`, `send_email`). */
  readonly writes: boolean;
  /** The name's verb does something that doing again does twice (`book_reservation`, `send_email`). */
  readonly effect: boolean;
  /** The server or namespace the name carries (`github` in `mcp__github__create_issue`), or `''`. */
  readonly server: string;
  /** The name says the tool types into a running program's standard input (`write_stdin`). */
  readonly typesIntoProcess: boolean;
}

/** A job-like thing, or several (`get_check_runs`, `describe_deployments` after a reading verb). */
function isJobWord(word: string): boolean {
  return JOB_WORDS.has(word) || (word.endsWith('s') && JOB_WORDS.has(word.slice(0, -1)));
}

function isPoll(list: readonly string[]): boolean {
  let output = false;
  let processWord = false;
  let jobRead = false;
  for (const word of list) {
    if (POLL_WORDS.has(word)) return true;
    if (jobRead && isJobWord(word)) return true;
    if (OUTPUT_WORDS.has(word)) output = true;
    if (PROCESS_WORDS.has(word)) processWord = true;
    if (JOB_READ_WORDS.has(word)) jobRead = true;
  }
  return output && processWord;
}

function readWords(list: readonly string[]): NameReading | undefined {
  const families: Family[] = [];
  const nouns: string[] = [];
  let remote = false;
  let fileWord = false;
  let joined = false;
  let bookkeeping = false;
  let remoteWrite = false;
  let inputStream = false;
  const verbs: string[] = [];
  for (const word of list) {
    if (INPUT_STREAM_WORDS.has(word)) inputStream = true;
    const family = FAMILY_BY_WORD.get(word);
    if (family) {
      families.push(family);
      verbs.push(word);
    } else if (!JOINERS.has(word)) nouns.push(word);
    if (REMOTE_WORDS.has(word)) remote = true;
    if (FILE_WORDS.has(word)) fileWord = true;
    if (JOINERS.has(word)) joined = true;
    if (BOOKKEEPING_WORDS.has(word)) bookkeeping = true;
    if (REMOTE_WRITE_WORDS.has(word)) remoteWrite = true;
  }
  const writes = families.some((family) => family === 'mutate' || family === 'create' || family === 'delete');
  const base = {
    pollClass: fileWord ? 'file_read' : 'api_call',
    noun: nouns.join('_'),
    writes: writes || remoteWrite,
    effect: false,
    server: '',
    typesIntoProcess: false,
  } as const;
  if (inputStream) return { ...base, kind: 'exec', typesIntoProcess: true };
  if (bookkeeping) return { ...base, kind: 'other' };
  if (QUESTION_WORDS.has(list[0] ?? '')) {
    return { ...base, noun: nouns.slice(1).join('_'), writes: false, kind: isPoll(list) ? 'poll' : 'read' };
  }
  if (!writes && isPoll(list)) return { ...base, kind: 'poll' };
  const first = families[0];
  if (first === undefined) return remote ? { ...base, kind: 'api' } : undefined;
  let family: Family = first;
  if (joined) family = families.reduce((a, b) => (WEIGHT[b] > WEIGHT[a] ? b : a));
  // `search_replace` and `find_and_replace` edit; they only search in order to do so.
  else if (first === 'search' && families.includes('mutate')) family = 'mutate';
  else if (first === 'read' && remote) family = 'api';
  // The verb that decided the kind says whether doing it twice does it twice (`book_reservation`).
  const effect = EFFECT_WORDS.has(verbs[families.indexOf(family)] ?? '');
  return effect ? { ...base, kind: family, writes: true, effect } : { ...base, kind: family };
}

const SILENT_NAME: NameReading = {
  kind: undefined,
  pollClass: 'api_call',
  noun: '',
  writes: false,
  effect: false,
  server: '',
  typesIntoProcess: false,
};
const MAX_CACHED_NAMES = 2048;
const readingCache = new Map<string, NameReading>();

/** What the name says, read in every convention; cached per name (bounded). */
export function readToolName(name: string): NameReading {
  if (typeof name !== 'string') return SILENT_NAME;
  const cached = readingCache.get(name);
  if (cached) return cached;
  let reading = SILENT_NAME;
  for (const candidate of nameReadings(name)) {
    const found = readWords(candidate);
    if (found) {
      reading = found;
      break;
    }
  }
  const server = serverOf(name);
  if (server !== '') reading = { ...reading, server };
  if (readingCache.size >= MAX_CACHED_NAMES) {
    const oldest = readingCache.keys().next();
    if (!oldest.done) readingCache.delete(oldest.value);
  }
  readingCache.set(name, reading);
  return reading;
}

/** Argument names squashed, kept until there are this many (hostile arguments may bring thousands). */
const MAX_SQUASHED_NAMES = 512;
/** Longer names are squashed each time, not kept. */
const MAX_SQUASHED_LENGTH = 64;
const squashedNames = new Map<string, string>();

/**
 * An argument's name without `_` and `-`, in lower case (`file_path`, `filePath`, `file-path` alike).
 * Without a pattern: a fresh process would compile one for it (see `needsNormalising` in targets.ts).
 */
export function squashArgumentName(key: string): string {
  const known = squashedNames.get(key);
  if (known !== undefined) return known;
  const squashed = key.replaceAll('_', '').replaceAll('-', '').toLowerCase();
  // Tools take a few short argument names, asked about on every call: each is squashed once.
  if (key.length > MAX_SQUASHED_LENGTH) return squashed;
  if (squashedNames.size >= MAX_SQUASHED_NAMES) squashedNames.clear();
  squashedNames.set(key, squashed);
  return squashed;
}

const COMMAND_KEYS = new Set(['command', 'cmd', 'commandline', 'script']);
const EDIT_KEYS = new Set(['oldstring', 'newstring', 'oldstr', 'newstr', 'oldtext', 'newtext', 'edits']);
const CONTENT_KEYS = new Set(['content', 'contents', 'filetext']);
const URL_KEYS = new Set(['url', 'uri', 'urls', 'endpoint', 'href']);
const QUERY_KEYS = new Set(['query', 'pattern', 'regex', 'q', 'searchterm', 'glob']);
const PATH_KEYS = new Set([
  'path',
  'paths',
  'filepath',
  'file',
  'filename',
  'dir',
  'directory',
  'notebookpath',
]);

/**
 * The fallback when neither annotations nor the name say anything. Precedence follows how telling each
 * argument is: a command is always run, edit strings always edit, a URL is always remote.
 */
export function kindFromArguments(args: Readonly<Record<string, unknown>>): ActionKind {
  let edit = false;
  let content = false;
  let url = false;
  let query = false;
  let path = false;
  let seen = 0;
  for (const key in args) {
    if (++seen > 64) break;
    const squashed = squashArgumentName(key);
    if (COMMAND_KEYS.has(squashed)) return 'exec';
    if (EDIT_KEYS.has(squashed)) edit = true;
    else if (CONTENT_KEYS.has(squashed)) content = true;
    else if (URL_KEYS.has(squashed)) url = true;
    else if (QUERY_KEYS.has(squashed)) query = true;
    else if (PATH_KEYS.has(squashed)) path = true;
  }
  if (edit) return 'mutate';
  if (content && path) return 'mutate';
  if (url) return 'api';
  if (query) return 'search';
  if (path) return 'read';
  return 'other';
}

/**
 * Whether a call to a tool that types into a running program types nothing at all: no text among its
 * arguments (Codex's `chars` empty or left out; the session's id and the wait are numbers). Any text,
 * under whatever name, may be typed, except the words a host puts beside a call to say what it is
 * for (a `description`): what is typed is never under such a name.
 */
function typesNothing(args: Readonly<Record<string, unknown>>): boolean {
  let seen = 0;
  for (const key in args) {
    if (++seen > 64) return false;
    if (isFreeTextKey(key)) continue;
    const value = args[key];
    if (typeof value === 'string' ? value !== '' : typeof value === 'object' && value !== null) return false;
  }
  return true;
}

/** Editor tools that take a subcommand (`str_replace_based_edit_tool`, `str_replace_editor`). */
const EDITOR_COMMANDS = new Map<string, ActionKind>([
  ['view', 'read'],
  ['create', 'create'],
  ['str_replace', 'mutate'],
  ['insert', 'mutate'],
  ['undo_edit', 'mutate'],
]);

/** Operations a patch tool takes by their type (OpenAI's `apply_patch` with `{type: "update_file", path, diff}`). */
const FILE_OPERATIONS = new Map<string, ActionKind>([
  ['create_file', 'create'],
  ['update_file', 'mutate'],
  ['delete_file', 'delete'],
]);

/**
 * The kind an editor tool's subcommand (`command: "str_replace"`) or a patch tool's operation (`type:
 * "update_file"`) gives its call, or undefined when its arguments name neither.
 */
export function subcommandKind(args: Readonly<Record<string, unknown>>): ActionKind | undefined {
  if (typeof args.command === 'string') return EDITOR_COMMANDS.get(args.command);
  return typeof args.type === 'string' ? FILE_OPERATIONS.get(args.type) : undefined;
}

const READ_ONLY_KINDS: ReadonlySet<ActionKind> = new Set(['read', 'search', 'poll', 'api']);
const WRITE_KINDS: ReadonlySet<ActionKind> = new Set(['mutate', 'create', 'delete', 'exec', 'api']);

/**
 * The kind of a call. `configured` holds kinds the adapter's user pinned by exact tool name: they
 * beat MCP annotations, which are a server's hints, but not narrowing's own `annotations.narrowing.kind`.
 */
export function kindOfCall(
  proposal: Proposal,
  reading: NameReading,
  configured?: ReadonlyMap<string, ActionKind>,
): ActionKind {
  const annotations = proposal.annotations;
  const pinned = annotations?.narrowing?.kind ?? configured?.get(proposal.tool);
  if (pinned !== undefined && Object.hasOwn(CLASS_BY_KIND, pinned)) return pinned;
  const args = isRecord(proposal.args) ? proposal.args : {};
  // Nothing typed into a running program (Codex's `write_stdin` with empty `chars`) asks only what
  // it printed since: a poll of the program, however the server hints at the tool's effects.
  if (reading.typesIntoProcess && typesNothing(args)) return 'poll';
  if (reading.kind === 'mutate') {
    const subcommand = subcommandKind(args);
    if (subcommand) return subcommand;
  }
  if (annotations?.readOnlyHint === true) {
    // Read-only is a promise about effects; the name still tells a search from a read.
    return reading.kind !== undefined && READ_ONLY_KINDS.has(reading.kind) ? reading.kind : 'read';
  }
  if (annotations?.readOnlyHint === false || annotations?.destructiveHint === true) {
    if (reading.kind !== undefined && WRITE_KINDS.has(reading.kind)) return reading.kind;
    // A tool named for waiting or asking how something stands (`browser_wait_for`, `get_job_status`)
    // writes nothing by waiting, whatever a server that marks its tools not read-only says; one it
    // says destroys is taken at its word.
    if (reading.kind === 'poll' && annotations.destructiveHint !== true) return 'poll';
    const shaped = kindFromArguments(args);
    if (shaped === 'exec' || shaped === 'mutate') return shaped;
    return annotations.idempotentHint === true || annotations.destructiveHint === true ? 'mutate' : 'other';
  }
  return reading.kind ?? kindFromArguments(args);
}

export function actionClassOf(kind: ActionKind, reading: NameReading): ToolCallActionClass {
  return kind === 'poll' ? reading.pollClass : CLASS_BY_KIND[kind];
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Does a successful call do something outside that repeating it would do again? Its name's verb
 * says so (`book_reservation`, `send_email`, `create_issue`), it talks to a service or makes a record
 * rather than a file (a second `write_file` with the same content changes nothing), and no annotation
 * says it is read-only or idempotent.
 */
export function hasOutsideEffect(
  proposal: Proposal,
  reading: NameReading,
  kind: ActionKind,
  args: Readonly<Record<string, unknown>>,
): boolean {
  if (!reading.effect || (kind !== 'api' && kind !== 'create')) return false;
  const annotations = proposal.annotations;
  if (annotations?.idempotentHint === true || annotations?.readOnlyHint === true) return false;
  return !namesAFile(args);
}

/** Kinds of call that act on no outside service: commands, and the agent's own notes. */
const SERVICELESS_KINDS: ReadonlySet<ActionKind> = new Set(['exec', 'other']);

/**
 * The outside service a call reads or changes: the server its name carries, or `''` for the one
 * service of tools whose names carry none. A call that names a file, a command and a note-keeping
 * tool talk to none: a sent message or a booking changes no file.
 */
export function serviceOf(
  reading: NameReading,
  kind: ActionKind,
  args: Readonly<Record<string, unknown>>,
): string | undefined {
  if (SERVICELESS_KINDS.has(kind) || namesAFile(args)) return undefined;
  return reading.server;
}

function namesAFile(args: Readonly<Record<string, unknown>>): boolean {
  let seen = 0;
  for (const key in args) {
    if (++seen > 64) break;
    if (PATH_KEYS.has(squashArgumentName(key))) return true;
  }
  return false;
}
