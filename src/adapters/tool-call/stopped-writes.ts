/**
 * What a command stopped before it ended (a timeout, a kill) may already have written. A command
 * that writes when it runs writes as it goes: an install has unpacked some packages, a scaffolder
 * has laid out some files, a redirection has opened its file, `mkdir` has made its folder. A command
 * the shell reader cannot see writing (a test run, a script, a download to the terminal) is taken to
 * have changed nothing, as before: its run was the environment's failure and nothing more.
 */
import type { CallFacts } from '../../core/types.js';
import { commandsOf } from './command-effects.js';
import { programName } from './program-name.js';
import { subcommandOf } from './subcommand.js';

/**
 * Programs and the subcommands of theirs that install packages or make a project from a template:
 * they write files their words do not all name (a lock file, `node_modules`, a new project's tree).
 */
const INSTALLERS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['npm', new Set(['install', 'i', 'ci', 'add', 'init', 'create', 'update', 'uninstall', 'remove'])],
  ['pnpm', new Set(['install', 'i', 'add', 'init', 'create', 'update', 'remove'])],
  ['yarn', new Set(['install', 'add', 'init', 'create', 'upgrade', 'remove'])],
  ['bun', new Set(['install', 'i', 'add', 'init', 'create', 'update', 'remove'])],
  ['pip', new Set(['install', 'uninstall', 'download'])],
  ['pip3', new Set(['install', 'uninstall', 'download'])],
  ['uv', new Set(['add', 'sync', 'init', 'pip', 'venv', 'remove'])],
  ['poetry', new Set(['add', 'install', 'new', 'init', 'update', 'remove'])],
  ['pipenv', new Set(['install', 'uninstall', 'sync'])],
  ['conda', new Set(['install', 'create', 'update', 'remove'])],
  ['mamba', new Set(['install', 'create', 'update', 'remove'])],
  ['cargo', new Set(['new', 'init', 'add', 'install', 'remove', 'update', 'vendor'])],
  ['go', new Set(['get', 'install', 'mod'])],
  ['composer', new Set(['install', 'require', 'create-project', 'update', 'remove'])],
  ['bundle', new Set(['install', 'add', 'update'])],
  ['gem', new Set(['install', 'uninstall'])],
  ['git', new Set(['clone', 'init', 'submodule'])],
  ['rails', new Set(['new', 'generate', 'g'])],
  ['django-admin', new Set(['startproject', 'startapp'])],
  ['dotnet', new Set(['new', 'add', 'restore'])],
  ['ng', new Set(['new', 'generate', 'g', 'add'])],
  ['apt', new Set(['install', 'remove'])],
  ['apt-get', new Set(['install', 'remove'])],
  ['brew', new Set(['install', 'uninstall'])],
]);
/** A package named for making a project (`create-vite@latest`, `@remix-run/create-remix`), run by a runner. */
const SCAFFOLDER = /^(?:@[\w.-]+\/)?create-[\w.-]+(?:@\S*)?$/;
/** Options before a subcommand that take the next word as their value (`git -C repo clone …`). */
const VALUED_OPTIONS = new Set(['-C', '-c', '--prefix', '--cwd', '--dir']);

/**
 * Whether a command stopped before it ended may have written files: its line was read to write some
 * (`touches`, a write whose path is unread, a change of the working tree), or one of its commands
 * installs packages, makes a project or sets a tool up in it (`npm install`, `pip install -r
 * requirements.txt`, `npx create-vite@latest app`, `cargo new api`, `npx shadcn@latest init`).
 */
export function mayHaveWrittenBeforeStopping(call: CallFacts, command: string): boolean {
  if (call.kind !== 'exec' || call.changesNothing === true || call.computesOnly === true) return false;
  if ((call.touches?.length ?? 0) > 0 || call.writesFiles === true || call.changesTree === true) return true;
  return commandsOf(command).some(installsOrScaffolds);
}

function installsOrScaffolds(words: readonly string[]): boolean {
  const first = words[0];
  if (first === undefined) return false;
  const program = programName(first);
  if (SCAFFOLDER.test(program)) return true;
  // `python -m pip install …`, `python3 -m venv .venv`.
  if (/^python(?:3(?:\.\d+)?)?$/.test(program) && words[1] === '-m') {
    if (words[2] === 'venv') return true;
    return words[2] === 'pip' && INSTALLERS.get('pip')?.has(words[3] ?? '') === true;
  }
  const subcommand = subcommandOf(words.slice(1), VALUED_OPTIONS);
  // A tool set up in the project by its `init` writes its configuration there, whatever the tool
  // (`npx shadcn@latest init`, `npx prisma init`, `terraform init`).
  if (subcommand === 'init') return true;
  const subcommands = INSTALLERS.get(program);
  return subcommands !== undefined && subcommand !== undefined && subcommands.has(subcommand);
}
