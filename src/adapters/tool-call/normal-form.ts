/**
 * Two spellings of one call should be one call: `ls  -la` and `ls -la`, `./src/a.ts` and
 * `src/a.ts`. The arguments the usual tools name `command` or `path` are brought to a normal form
 * before the call is identified, so that identical-call detection cannot be dodged by spacing.
 * Cheap: a few property reads per call, and a copy only when something changes.
 */
import { FREE_TEXT_KEYS, isFreeTextKey } from './free-text-keys.js';
import { normalizePath } from './targets.js';

/** Arguments holding a shell command line. */
const COMMAND_KEYS = ['command', 'cmd'] as const;
/** Arguments holding one file path. */
const PATH_KEYS = ['path', 'file_path', 'filePath'] as const;

/** Spacing a shell ignores: a run of blanks, or blanks at either end. */
const LOOSE_SPACING = /[ \t][ \t]|\t|^\s|\s$/;

/** `<<EOF`, `<< 'EOF'`, `<<-"EOF"`, `<<\EOF`: a heredoc's operator and its delimiter word. */
const HEREDOC = /^<<(-?)([ \t]*)((?:'([^'\n]*)'|"([^"\n]*)"|\\?([^\s;&|<>()'"]+)))/;

/**
 * A command line with runs of spaces and tabs outside quotes made one space, and the ends trimmed.
 * Quoted text (`'…'`, `"…"`), escaped characters (`\ `) and the bodies of heredocs (a patch, a
 * script, a file's text, whose spacing is what the program is given) are kept as they are; newlines,
 * which separate commands, are kept too.
 */
export function normalizeCommand(command: string): string {
  if (!LOOSE_SPACING.test(command)) return command;
  let out = '';
  let quote = '';
  let pendingSpace = false;
  const heredocs: { delimiter: string; tabs: boolean }[] = [];
  for (let index = 0; index < command.length; index++) {
    const char = command[index] as string;
    if (quote === '') {
      if (char === ' ' || char === '\t') {
        pendingSpace = true;
        continue;
      }
      if (pendingSpace && out !== '' && char !== '\n' && !out.endsWith('\n')) out += ' ';
      pendingSpace = false;
      if (char === '\\' && index + 1 < command.length) {
        out += char + (command[index + 1] as string);
        index++;
        continue;
      }
      if (char === '<') {
        // A here-string (`<<<`) gives one word; a heredoc's body follows the line that opens it.
        if (command.startsWith('<<<', index)) {
          out += '<<<';
          index += 2;
          continue;
        }
        const heredoc = HEREDOC.exec(command.slice(index, index + 256));
        if (heredoc) {
          const [whole, dash, gap, word, single, double, bare] = heredoc;
          heredocs.push({ delimiter: single ?? double ?? bare ?? '', tabs: dash === '-' });
          out += `<<${dash}${gap === '' ? '' : ' '}${word}`;
          index += whole.length - 1;
          continue;
        }
      }
      if (char === '\n' && heredocs.length > 0) {
        const end = heredocBodiesEnd(command, index + 1, heredocs);
        out += command.slice(index, end);
        heredocs.length = 0;
        index = end - 1;
        continue;
      }
      if (char === '"' || char === "'") quote = char;
    } else if (char === quote) {
      quote = '';
    } else if (char === '\\' && quote === '"' && index + 1 < command.length) {
      out += char + (command[index + 1] as string);
      index++;
      continue;
    }
    out += char;
  }
  return quote === '' ? out.trim() : out;
}

/**
 * Where the bodies of the heredocs a line opened end, read from `start` (the line after it): at the
 * line break after the line that closes the last of them, or at the end of the command.
 */
function heredocBodiesEnd(
  command: string,
  start: number,
  heredocs: readonly { delimiter: string; tabs: boolean }[],
): number {
  let at = start;
  for (let index = 0; index < heredocs.length; index++) {
    const { delimiter, tabs } = heredocs[index] as { delimiter: string; tabs: boolean };
    // Past the line break that ended the body before.
    if (index > 0 && at < command.length) at++;
    while (at < command.length) {
      const next = command.indexOf('\n', at);
      const end = next === -1 ? command.length : next;
      const line = command.slice(at, end).replace(/\r$/, '');
      const closes = (tabs ? line.replace(/^\t+/, '') : line) === delimiter;
      if (closes || next === -1) {
        at = end;
        break;
      }
      at = next + 1;
    }
  }
  return at;
}

/**
 * Arguments that say what a call acts on: a command, a file, a place in a file, a search, an edit's
 * text. Beside one of them, free text is only words about the call.
 */
const ACTS_ON_KEYS = [
  ...COMMAND_KEYS,
  ...PATH_KEYS,
  'absolute_path',
  'absolutePath',
  'target_file',
  'relative_workspace_path',
  'file_name',
  'filename',
  'dir',
  'line_number',
  'lines',
  'pattern',
  'query',
  'search_term',
  'regex',
  'glob',
  'old_string',
  'new_string',
  'old_str',
  'new_str',
  'replacement',
  'patch',
  'diff',
] as const;
/** How a patch opens, under whatever key a tool takes it (`*** Begin Patch`, a unified diff's `--- a/…`). */
const PATCH_OPENING = /^(?:\*\*\* Begin Patch\n|--- \S[^\n]*\n\+\+\+ \S)/;

/** Whether a value of the call is a patch: an edit's text, naming the files it acts on. */
function holdsPatch(args: Readonly<Record<string, unknown>>): boolean {
  for (const key in args) {
    const value = args[key];
    if (Object.hasOwn(args, key) && typeof value === 'string' && PATCH_OPENING.test(value)) return true;
  }
  return false;
}

/**
 * Whether the call relays another tool's call: it names the tool (`tool_name`) and carries that
 * call's arguments as an object (`arguments`), as an MCP relay does. What the relayed call says is
 * in its arguments; words beside them are about the call.
 */
function relaysACall(args: Readonly<Record<string, unknown>>): boolean {
  const relayed = args.arguments;
  return (
    typeof args.tool_name === 'string' &&
    typeof relayed === 'object' &&
    relayed !== null &&
    !Array.isArray(relayed)
  );
}
const NONE: readonly string[] = [];

function hasAny(args: Readonly<Record<string, unknown>>, keys: readonly string[]): boolean {
  for (const key of keys) if (args[key] !== undefined) return true;
  return false;
}

/** Whether the call has an argument besides its free text. */
function hasOtherArguments(args: Readonly<Record<string, unknown>>): boolean {
  // The first key decides for almost every call: no walk of a huge object's keys.
  for (const key in args) {
    if (Object.hasOwn(args, key) && args[key] !== undefined && !isFreeTextKey(key)) return true;
  }
  return false;
}

/**
 * Whether the tool's own input schema lists its arguments and `key` is not one of them: a value the
 * tool does not take cannot be its data. Unknown (no schema, or one that lists nothing) is false.
 */
function schemaLeavesOut(inputSchema: unknown, key: string): boolean {
  const properties = schemaProperties(inputSchema);
  return properties !== undefined && Object.keys(properties).length > 0 && !Object.hasOwn(properties, key);
}

/** Whether the tool's own input schema lists `key` among its arguments: a value the tool takes. */
export function schemaTakes(inputSchema: unknown, key: string): boolean {
  const properties = schemaProperties(inputSchema);
  return properties !== undefined && Object.hasOwn(properties, key);
}

function schemaProperties(inputSchema: unknown): object | undefined {
  if (typeof inputSchema !== 'object' || inputSchema === null) return undefined;
  const properties = (inputSchema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return undefined;
  return properties;
}

/**
 * The free text that is only words about the call, not part of it. Beside what the call acts on
 * (a patch under any key among it, and a relayed call's arguments), every free-text field. Beside other arguments (a booking's flights, a reservation's id), an
 * `explanation` or a `justification`, which only ever say why a call is made; a `description` there
 * may be the call's data (a ticket's body, a task's text beside its project and assignee, the only
 * account a recording kept of a call) and stays, unless the tool's own schema, where it is known,
 * lists its arguments without it. A call with nothing but free text (`{"explanation": "…"}`) says
 * only that, and keeps it.
 */
export function wordsAboutTheCall(
  args: Readonly<Record<string, unknown>>,
  inputSchema?: unknown,
): readonly string[] {
  if (!FREE_TEXT_KEYS.some((key) => typeof args[key] === 'string')) return NONE;
  const present = FREE_TEXT_KEYS.filter((key) => typeof args[key] === 'string');
  if (hasAny(args, ACTS_ON_KEYS) || relaysACall(args) || holdsPatch(args)) return present;
  if (!hasOtherArguments(args)) return NONE;
  if (schemaLeavesOut(inputSchema, 'description')) return present;
  return present.filter((key) => key !== 'description');
}

/**
 * The arguments with their command and path in normal form, and without the words about the call
 * beside its arguments; the same object when nothing changes.
 */
export function normalizeArguments(
  args: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  let out: Record<string, unknown> | undefined;
  const words = wordsAboutTheCall(args);
  if (words.length > 0) {
    out = { ...args };
    for (const key of words) delete out[key];
  }
  for (const key of COMMAND_KEYS) {
    const value = args[key];
    if (typeof value !== 'string') continue;
    const normal = normalizeCommand(value);
    if (normal !== value) {
      out ??= { ...args };
      out[key] = normal;
    }
  }
  for (const key of PATH_KEYS) {
    const value = args[key];
    if (typeof value !== 'string' || value === '') continue;
    const normal = normalizePath(value);
    if (normal !== value) {
      out ??= { ...args };
      out[key] = normal;
    }
  }
  return out ?? args;
}
