/**
 * One attempt, however it is spelled: two command lines that run the same programs on the same
 * operands, differing only in the order of their options, in options that change what is shown and
 * not what runs (`--verbose`, `-q`, `--color=never`), in variables that only change presentation
 * (`NO_COLOR=1`, `PYTHONDONTWRITEBYTECODE=1`), in `2>&1`, or in a pager or trimmer the output is
 * piped through (`| tail -20`), are the same attempt: if it failed, spelling it again fails the same
 * way. Read with a real shell parser; a line it cannot read has no attempt key, and is judged as written.
 */
import type { SyntaxNode } from 'unbash';
import { leavesSourcesAlone } from './command-effects.js';
import { readableTree } from './shell-parse.js';

/** Longer command lines are judged as written. */
const MAX_COMMAND_CHARS = 4_096;
const MAX_NODES = 1_024;

/** Options that change only what a run prints, whatever the program. */
const PRESENTATION_OPTION =
  /^--(?:verbose|quiet|silent|colou?r(?:=.*)?|no-colou?r|no-ansi|ansi|progress|no-progress|pretty|no-pretty|tb=.*|no-header|no-summary|durations=.*|reporter=.*|show-capture=.*|disable-warnings)$/;
/** Short options that change only what a test run or a build prints (`-v`, `-vv`, `-q`, `-s`). */
const CHECK_PRESENTATION_OPTION = /^-(?:v+|q+|s|vs|sv|rA|ra)$/;
/** Variables that change how output looks, or caches, and never what a program does. */
const PRESENTATION_VARIABLES = new Set([
  'NO_COLOR',
  'FORCE_COLOR',
  'CLICOLOR',
  'CLICOLOR_FORCE',
  'TERM',
  'COLUMNS',
  'LINES',
  'PAGER',
  'GIT_PAGER',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'PY_COLORS',
  'CARGO_TERM_COLOR',
  'CI',
]);
/** Programs that only page or trim what another prints, when they name no file. */
const TRIMMERS = new Set(['head', 'tail', 'less', 'more', 'cat']);
/** Words before a program that say how long or how it runs, not what it runs. */
const TIMING = new Set(['time', 'nice', 'nohup', 'stdbuf']);
/**
 * Runners that start a program installed for the project (`npx jest`, `uv run pytest`): to a
 * respelling, the program itself. The words each takes before the program.
 */
const RUNNERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['npx', []],
  ['bunx', []],
  ['pnpx', []],
  ['pnpm', ['exec']],
  ['yarn', ['exec']],
  ['uv', ['run']],
  ['poetry', ['run']],
  ['pipenv', ['run']],
  ['hatch', ['run']],
  ['pdm', ['run']],
  ['bundle', ['exec']],
]);
/**
 * Variables that tune where a program looks for code or how much it tells (`PYTHONPATH=.`,
 * `DEBUG=1`), never what it works on: to a respelling, left out. Others (a database's URL, a port,
 * a token) may name what the program acts on, and keep spellings apart.
 */
const TUNING_VARIABLES = new Set([
  'PYTHONPATH',
  'NODE_PATH',
  'NODE_OPTIONS',
  'DEBUG',
  'LOG_LEVEL',
  'VERBOSE',
  'RUST_BACKTRACE',
  'RUST_LOG',
  'PYTHONWARNINGS',
  'PYTHONFAULTHANDLER',
]);
/** A Python interpreter by name (`python`, `python3`, `python3.12`, `py`), which `-m` runs a module with. */
const PYTHON = /^(?:python(?:\d(?:\.\d+)?)?|py)$/;

/**
 * A key that two spellings of one attempt share, or undefined when the line has parts it does not
 * read (functions, loops, substitutions) or is spelled exactly as its key would be.
 */
export function commandAttemptKey(command: string): string | undefined {
  return commandAttemptKeys(command)?.key;
}

/**
 * A command's attempt key, and the key earlier builds gave it: before a `--` after an operand was
 * kept, and before a quoted word holding a blank was kept one word.
 */
export interface AttemptKeys {
  readonly key: string;
  /**
   * The key with every option of a command in one sorted set, wherever it stands among the operands,
   * which keep their order: `jest --runInBand src/a.test.ts` and `jest src/a.test.ts --runInBand`
   * share it. Set only where it differs from `key`, which keeps an option that a plain word follows
   * apart, as it may take that word as its value. Two spellings sharing it are the same attempt only
   * once they failed alike: then the option did not take the word, or taking it changed nothing.
   * It also leaves out the runner or interpreter that starts the program (`npx jest`, `python -m
   * pytest`) and the variables that only tune it (`PYTHONPATH=.`): these may change what runs, and
   * are shown not to once two spellings failed alike.
   */
  readonly respelled?: string;
  /**
   * The key with every option left out, its value kept where `--name=value` gives one: the programs
   * and their plain words in order (`npm install pkg@6.4.2 --force` and `npm install --save
   * pkg@6.4.2` share it). Set only where it differs from `key`. Spellings sharing it are one attempt
   * only where the failure says one of those words names nothing that exists: no option makes it
   * exist.
   */
  readonly optionless?: string;
  /**
   * Set only when the key differs from it: the line keeps a `--` that comes after an operand, or
   * quotes a word holding a blank or nothing, which keys before left out (a ban learned then holds
   * that key).
   */
  readonly older?: string;
}

/** `commandAttemptKey`, with the older key when it differs (see `AttemptKeys`). */
export function commandAttemptKeys(command: string): AttemptKeys | undefined {
  if (typeof command !== 'string' || command.length > MAX_COMMAND_CHARS) return undefined;
  const script = readableTree(command);
  if (script === undefined) return undefined;
  const parts: string[] = [];
  const budget: Budget = {
    nodes: 0,
    asBefore: false,
    respell: false,
    optionless: [],
    differsFromBefore: false,
    optionBeforeOperand: false,
    hasOption: false,
    runsAnother: false,
  };
  try {
    if (!readList(script, parts, budget)) return undefined;
  } catch {
    return undefined;
  }
  if (parts.length === 0) return undefined;
  const key = parts.join(' ; ');
  const respelled =
    budget.optionBeforeOperand || budget.runsAnother ? readAgain(script, { respell: true }) : undefined;
  const optionless = budget.hasOption ? (budget.optionless as string[]).join(' ; ') : undefined;
  const keys: { key: string; respelled?: string; optionless?: string } = { key };
  if (respelled !== undefined && respelled !== key) keys.respelled = respelled;
  if (optionless !== undefined && optionless !== key) keys.optionless = optionless;
  if (!budget.differsFromBefore) return keys;
  // Read again as before: the words were read once, and only such lines pay for a second reading.
  const older = readAgain(script, { asBefore: true });
  return older === undefined ? keys : { ...keys, older };
}

/** The line's key read again another way (see `Budget`), or undefined when that reading fails. */
function readAgain(script: SyntaxNode, how: { asBefore?: boolean; respell?: boolean }): string | undefined {
  const parts: string[] = [];
  const budget: Budget = {
    nodes: 0,
    asBefore: how.asBefore === true,
    respell: how.respell === true,
    differsFromBefore: false,
    optionBeforeOperand: false,
    hasOption: false,
    runsAnother: false,
  };
  try {
    return readList(script, parts, budget) ? parts.join(' ; ') : undefined;
  } catch {
    return undefined;
  }
}

interface Budget {
  nodes: number;
  /**
   * Read as keys were before: a `--` after an operand left out unless a dashed word follows it, and
   * a quoted word written bare.
   */
  readonly asBefore: boolean;
  /** Read for `AttemptKeys.respelled`: a command's options in one sorted set, its operands in order. */
  readonly respell: boolean;
  /**
   * On the first reading, the parts of `AttemptKeys.optionless`, written beside the key's: every
   * option left out, a `--name=value`'s value kept.
   */
  readonly optionless?: string[];
  /** Some word is written otherwise than keys before wrote it (see `asBefore`). */
  differsFromBefore: boolean;
  /** Some option is followed by a plain word, which it may take as its value. */
  optionBeforeOperand: boolean;
  /** Some option is given to a program (one that changes what is shown excepted). */
  hasOption: boolean;
  /**
   * Some command sets a variable that only tunes it (`TUNING_VARIABLES`), or runs its program
   * through a runner or an interpreter's `-m`: read to respell, those are left out.
   */
  runsAnother: boolean;
}

/** Reads statements, `&&`/`||` lists and pipelines; anything else makes the line unreadable. */
function readList(node: SyntaxNode, parts: string[], budget: Budget): boolean {
  if (++budget.nodes > MAX_NODES) return false;
  switch (node.type) {
    case 'Script':
      for (const statement of node.commands) if (!readList(statement, parts, budget)) return false;
      return true;
    case 'Statement':
      if (node.background) return false;
      return readList(node.command, parts, budget);
    case 'AndOr':
      for (let index = 0; index < node.commands.length; index++) {
        if (index > 0) {
          const operator = node.operators[index - 1] ?? '&&';
          parts.push(operator);
          budget.optionless?.push(operator);
        }
        if (!readList(node.commands[index] as SyntaxNode, parts, budget)) return false;
      }
      return true;
    case 'Pipeline': {
      if (node.prefixes.length > 0) return false;
      const commands = node.commands.filter((command, index) => index === 0 || !isTrimmer(command));
      for (let index = 0; index < commands.length; index++) {
        if (index > 0) {
          parts.push('|');
          budget.optionless?.push('|');
        }
        if (!readList(commands[index] as SyntaxNode, parts, budget)) return false;
      }
      return true;
    }
    case 'Command': {
      const read = readCommand(node, budget);
      if (read === undefined) return false;
      parts.push(read);
      return true;
    }
    default:
      return false;
  }
}

type CommandNode = Extract<SyntaxNode, { type: 'Command' }>;

/** `| tail -20`, `| head -n 50`, `| less`: the same run, less of it shown. */
function isTrimmer(node: SyntaxNode): boolean {
  if (node.type !== 'Command' || node.name === undefined || node.redirects.length > 0) return false;
  if (!TRIMMERS.has(node.name.value)) return false;
  const args = node.args.map((arg) => (arg.type === 'Word' ? arg.value : arg.text));
  // `head -n 20` names no file; `tail log.txt` does.
  return args.every((arg, index) => arg.startsWith('-') || /^\d+$/.test(arg) || args[index - 1] === '-n');
}

/** The program, its operands in order, and its options that matter, sorted. */
function readCommand(node: CommandNode, budget: Budget): string | undefined {
  const variables: string[] = [];
  for (const prefix of node.prefix) {
    if (prefix.type !== 'Assignment') return undefined;
    if (PRESENTATION_VARIABLES.has(prefix.name)) continue;
    const tuning = TUNING_VARIABLES.has(prefix.name);
    if (tuning) budget.runsAnother = true;
    if (!tuning || !budget.respell) variables.push(prefix.text);
  }
  const redirects: string[] = [];
  for (const redirect of node.redirects) {
    if (redirect.type !== 'Redirect') return undefined;
    const target = redirect.target?.text ?? '';
    // `2>&1`: both streams shown together, the same run.
    if (redirect.operator === '>&' && /^\d$/.test(target)) continue;
    redirects.push(`${redirect.operator}${target}`);
  }
  // Each word as the program gets it (`value`, quotes removed: a quoted `"-x"` is an option to it)
  // and as the key writes it (`textOf`).
  const words: Word[] = [];
  if (node.name !== undefined) words.push({ value: node.name.value, key: textOf(node.name, budget) });
  for (const arg of node.args) {
    if (arg.type !== 'Word') return undefined;
    words.push({ value: arg.value, key: textOf(arg, budget) });
  }
  let at = 0;
  while (TIMING.has(words[at]?.value ?? '')) at++;
  if (words[at]?.value === 'timeout' && /^\d/.test(words[at + 1]?.value ?? '')) at += 2;
  const through = runnerWords(words, at);
  if (through > 0) budget.runsAnother = true;
  if (budget.respell) at += through;
  const program = words[at];
  if (program === undefined) return variables.length > 0 ? variables.sort().join(' ') : undefined;
  // Whether the command is a check matters only for its short output options (`-v`, `-q`): most
  // commands have none, and are not judged.
  let check: boolean | undefined;
  const isCheck = (): boolean => {
    check ??= leavesSourcesAlone(
      words
        .slice(at)
        .map((word) => word.key)
        .join(' '),
    );
    return check;
  };
  const shown = (word: string): boolean =>
    PRESENTATION_OPTION.test(word) || (CHECK_PRESENTATION_OPTION.test(word) && isCheck());
  variables.sort();
  redirects.sort();
  const plain: string[] | undefined = budget.optionless === undefined ? undefined : [];
  const key = [
    ...variables,
    program.key,
    ...argumentsKey(words.slice(at + 1), shown, budget, plain),
    ...redirects,
  ].join(' ');
  if (plain !== undefined)
    budget.optionless?.push([...variables, program.key, ...plain, ...redirects].join(' '));
  return key;
}

/**
 * How many words at `at` start the program after them rather than being it: a runner and the words
 * it takes (`npx`, `uv run`), or an interpreter and `-m` (`python3 -m pytest`); none when a word
 * that follows is an option the runner would read (`npx -p pkg jest`), or nothing follows.
 */
function runnerWords(words: readonly Word[], at: number): number {
  const first = words[at]?.value;
  if (first === undefined) return 0;
  const taken = RUNNERS.get(first);
  let count = 0;
  if (taken !== undefined) {
    if (!taken.every((word, index) => words[at + 1 + index]?.value === word)) return 0;
    count = 1 + taken.length;
  } else if (PYTHON.test(first) && words[at + 1]?.value === '-m') {
    count = 2;
  } else {
    return 0;
  }
  const program = words[at + count]?.value;
  return program === undefined || program.startsWith('-') ? 0 : count;
}

interface Word {
  /** What the program is given. */
  readonly value: string;
  /** How the key writes it. */
  readonly key: string;
}

/**
 * The arguments in an order-free spelling that keeps what they mean to a program whose options the
 * guard does not know. Options next to each other are sorted, but an option followed by a plain word
 * stays last of its run, as it may take that word as its value (`-a 1 -b 2` is not `-b 1 -a 2`;
 * `-x tests/a.py` is not `tests/a.py -x`); `--name=value` is `--name value`. Options that change
 * only what is shown are left out. `--` ends the options: it stays when a word after it starts with
 * a dash (that word is an operand only because of it) or when an operand comes before it (it then
 * parts two kinds of operands, as git's revisions from its paths: `git diff HEAD~3 -- app.ts` is not
 * `git diff HEAD~3 app.ts`, which fails when `app.ts` is no longer in the tree), and is left out
 * otherwise. Read to respell (`Budget.respell`), the options of the whole command are one run,
 * written sorted after the operands, none kept beside the word after it.
 */
function argumentsKey(
  args: readonly Word[],
  shown: (word: string) => boolean,
  budget: Budget,
  plain?: string[],
): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const endRun = (lastTakesNext: boolean): void => {
    if (budget.respell && lastTakesNext) return;
    if (lastTakesNext && run.length > 0) budget.optionBeforeOperand = true;
    const last = lastTakesNext ? run.pop() : undefined;
    out.push(...run.sort());
    if (last !== undefined) out.push(last);
    run = [];
  };
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as Word;
    if (word.value === '--') {
      endRun(false);
      const rest = args.slice(index + 1);
      const operandBefore = args
        .slice(0, index)
        .some((before) => !before.value.startsWith('-') || before.value === '-');
      const dashAfter = rest.some((after) => after.value.startsWith('-') && after.value !== '-');
      if (dashAfter || (operandBefore && !budget.asBefore)) out.push('--');
      if (operandBefore && !dashAfter) budget.differsFromBefore = true;
      for (const after of rest) {
        out.push(after.key);
        plain?.push(after.key);
      }
      return out;
    }
    if (!word.value.startsWith('-') || word.value === '-') {
      endRun(true);
      out.push(word.key);
      plain?.push(word.key);
      continue;
    }
    if (shown(word.value)) continue;
    budget.hasOption = true;
    const equals = word.value.startsWith('--') ? word.value.indexOf('=') : -1;
    if (equals > 2) {
      const value = word.key === word.value ? word.value.slice(equals + 1) : word.key;
      run.push(word.value.slice(0, equals));
      endRun(true);
      out.push(value);
      plain?.push(value);
      continue;
    }
    run.push(word.key);
  }
  endRun(false);
  return out;
}

/**
 * A word as written: quoting kept apart from the text only where it changes nothing. Quoting a
 * variable, a substitution, an escape or a glob (`"pkg@workspace:*"` against `pkg@workspace:*`)
 * changes what the program is given: the shell expands the unquoted one, or fails to. A word quoted
 * whole, with nothing the shell expands inside (`'- [ ]'`, `"- [ ]"`), is given as it reads, whichever
 * quotes hold it.
 */
function textOf(word: { readonly value: string; readonly text: string }, budget: Budget): string {
  // A word that is its own value and opens with no quote is written as it reads, whatever it holds:
  // the words of a plain line, and most others.
  if (word.text === word.value && !opensWithQuote(word.text)) return word.value;
  // Quotes that hold a blank (`"service accounts.txt"`) or nothing (`-m ""`) make one word of it,
  // which the key must keep one: written bare, it would read as the words the same line gives the
  // program unquoted (`git add service accounts.txt` stages two files, not one).
  if (!/[$`\\*?[]/.test(word.text)) {
    if (!/\s/.test(word.value) && word.value !== '') return word.value;
    budget.differsFromBefore = true;
    return budget.asBefore ? word.value : `'${word.value}'`;
  }
  return LITERAL_QUOTED.test(word.text) ? `'${word.value}'` : word.text;
}

function opensWithQuote(text: string): boolean {
  const first = text.charCodeAt(0);
  return first === 39 || first === 34;
}

/** `'…'` with no quote inside, or `"…"` with no expansion and no escape that the shell reads. */
const LITERAL_QUOTED = /^(?:'[^']*'|"(?:[^"$`\\]|\\[^$`"\\\n])*")$/;
