/**
 * Commands whose outcome waits on a person, and the files of the programs a command runs.
 *
 * A login (`gh auth login`, `az login --use-device-code`, `openclaw channels login`) shows a code, a
 * link or a QR code and waits for a person to act on it elsewhere: on a phone, in a browser. When it
 * fails (the code expired, the session was dropped), the person may act before the next run, which
 * no file shows, so one failure does not say the same command fails again.
 *
 * A program's own files are those of the folder named for it: its installed package
 * (`…/node_modules/openclaw/dist/session.js`, `…/site-packages/httpie/…`) and its settings folder
 * (`~/.openclaw/credentials/…`, `~/.docker/config.json`). A change of them may change what the
 * program does, whichever files the command line names.
 */
import { commandsOf } from './command-effects.js';
import { programName } from './program-name.js';

/** Words that, as a subcommand, ask a person to sign in. */
const SIGN_IN = new Set(['login', 'signin', 'sign-in', 'authenticate']);
/** Programs whose words are text to look for or print, never a subcommand. */
const TEXT_PROGRAMS = new Set([
  'grep',
  'rg',
  'ag',
  'ack',
  'echo',
  'printf',
  'sed',
  'awk',
  'find',
  'man',
  'which',
]);
/** Options that ask for a sign-in through a code shown to a person. */
const DEVICE_CODE = /^--(?:use-)?device-code(?:=|$)/;
/** How many words after the program a sign-in subcommand is looked for (`gcloud auth application-default login`). */
const SUBCOMMAND_DEPTH = 3;
/** Subcommand words: no option, path, variable or quoted text. */
const SUBCOMMAND = /^[a-z][a-z0-9_-]*$/;

/** Folders whose folders are installed programs and packages, one each. */
const PACKAGE_HOMES = new Set([
  'node_modules',
  'site-packages',
  'dist-packages',
  'gems',
  'Cellar',
  'opt',
  'libexec',
  'extensions',
  'plugins',
]);
/** Home folders: a dot-folder right under one is a program's settings (`~/.docker`). */
const HOME = /^(?:~|\/home\/[^/]+|\/Users\/[^/]+|\/root|[A-Za-z]:[\\/]Users[\\/][^\\/]+)$/;
/** Dot-folders under a home that hold many programs' files, not one program's. */
const SHARED_DOT_FOLDERS = new Set(['.config', '.local', '.cache', '.var']);
/** Settings folders under a home that hold one folder per program (`~/.config/gh`). */
const SETTINGS_HOMES = new Set(['.config', '.local/share', 'AppData/Roaming', 'AppData/Local']);
/** Program names this short are too common as words to say a command runs the program. */
const MIN_PROGRAM_NAME = 3;
/** What separates a command line's words. */
const WORD_BREAKS = /[\s;&|()<>'"`=]+/;

/**
 * The program `path` is a file of, if any: the innermost package folder it is in (`node_modules/openclaw/…`,
 * `node_modules/@scope/name/…`), or the settings folder under a home (`~/.openclaw/…`,
 * `~/.config/gh/…`). Read from the path alone, so most paths (a project's own files) answer at once.
 */
export function programHolding(path: string): string | undefined {
  const parts = path.split(/[/\\]/);
  let innermost: string | undefined;
  for (let index = 1; index < parts.length - 1; index++) {
    const parent = parts[index - 1] as string;
    let name = parts[index] as string;
    if (PACKAGE_HOMES.has(parent)) {
      // A scoped package (`node_modules/@scope/name/…`) is named by its second folder.
      const scoped = name.startsWith('@');
      if (scoped && index + 1 < parts.length - 1) name = parts[index + 1] as string;
      if (!scoped || index + 1 < parts.length - 1) innermost = name;
      continue;
    }
    const home = parts.slice(0, index).join('/');
    if (name.startsWith('.') && HOME.test(home) && !SHARED_DOT_FOLDERS.has(name)) {
      innermost = name.slice(1);
      continue;
    }
    for (const settings of SETTINGS_HOMES) {
      if (home.endsWith(`/${settings}`) && HOME.test(home.slice(0, -settings.length - 1))) innermost = name;
    }
  }
  // The innermost is the program: a package installed under another program's folder (`~/.nvm/…/
  // node_modules/openclaw/…`) is the package's.
  return innermost !== undefined && innermost.length >= MIN_PROGRAM_NAME ? innermost : undefined;
}

/**
 * Whether a command line runs or names `program` (`programHolding`'s answer for a changed file): the
 * program named by a word of the line, or a path ending with it.
 */
export function runsProgram(command: string, program: string): boolean {
  if (!command.includes(program)) return false;
  return command.split(WORD_BREAKS).some((word) => word !== '' && programName(word) === program);
}

/** Whether a command line runs a sign-in that waits for a person (a login subcommand, a device code). */
export function waitsForPerson(command: string): boolean {
  if (!/login|sign-?in|authenticate|device-code/i.test(command)) return false;
  for (const words of commandsOf(command)) {
    const program = words[0] ?? '';
    if (TEXT_PROGRAMS.has(programName(program))) continue;
    if (words.some((word) => DEVICE_CODE.test(word))) return true;
    let seen = 0;
    for (const word of words.slice(1)) {
      if (word.startsWith('-')) continue;
      if (!SUBCOMMAND.test(word) || seen >= SUBCOMMAND_DEPTH) break;
      if (SIGN_IN.has(word)) return true;
      seen++;
    }
  }
  return false;
}
