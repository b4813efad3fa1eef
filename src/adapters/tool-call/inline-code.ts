/**
 * Code handed to an interpreter on its command line (`python3 -c "import base64; print(…)"`) that
 * only computes: it imports modules that compute and nothing that reaches files, processes or the
 * network, opens no file for writing and evaluates no code built at run time. Running it changes
 * nothing another call can see: what it tells the agent is new, what it leaves behind is not. Any
 * doubt makes it a command of unknown effects, as before.
 *
 * Node's code on its command line (`node -e`, `node -p`) is read the same way, for whether it only
 * looks (prints a package's version, reads a file) or may change something: a script that rewrites a
 * file (`fs.writeFileSync('routes/a.js', fixed)`) is an edit of it made through the shell.
 */

/** Python interpreters by name: `python`, `python3`, `python3.11`. */
const PYTHON = /^python(?:\d+(?:\.\d+)?)?$/;
/** Interpreter options before `-c` that change no effect of the code (unbuffered, isolated…). */
const HARMLESS_OPTIONS = /^-[uBIEsSOq]+$/;
/** Longer code is not read: its effects stay unknown. */
const MAX_CODE_CHARS = 8_192;

/**
 * Modules that compute in memory, by their full dotted name or the package they are in. `os` and
 * `sys` are judged by what the code uses of them (see `USES_OF_OS`).
 */
const COMPUTING = new Set([
  'math',
  'cmath',
  'base64',
  'binascii',
  'hashlib',
  'hmac',
  'struct',
  'string',
  're',
  'json',
  'itertools',
  'functools',
  'operator',
  'collections',
  'codecs',
  'fractions',
  'decimal',
  'random',
  'statistics',
  'textwrap',
  'zlib',
  'unicodedata',
  'secrets',
  'sys',
  'os',
  'os.path',
  'urllib.parse',
  'Crypto',
  'Cryptodome',
  'gmpy2',
  'sympy',
]);
/** What of `os` only reads: anything else it offers (`remove`, `system`, `rename`) may change files. */
const USES_OF_OS = /\bos\.(?!(?:path|listdir|getcwd|getenv|environ|urandom|sep|linesep)\b)/;
/** Code run from a string, or names looked up at run time, which the reading cannot follow. */
const DYNAMIC = /\b(?:exec|eval|compile|__import__|getattr|globals|breakpoint)\s*\(/;
/** A write through a file object, or a dump into one. */
const WRITES = /\.(?:write|writelines|truncate|dump)\s*\(/;
/** A file mode that writes, appends, creates or updates (`'w'`, `"ab"`, `'r+'`). */
const WRITING_MODE = /['"][rbt]*[wax+][rbtwax+]*['"]/;
const IMPORT = /(?:^|[\n;])[^\S\n]*import\s+([^\n;]+)/g;
const FROM_IMPORT = /(?:^|[\n;])[^\S\n]*from\s+([\w.]+)\s+import\b/g;

/** Whether `program` run with `args` is an interpreter given code that only computes. */
export function computesInline(program: string, args: readonly string[]): boolean {
  if (!PYTHON.test(program)) return false;
  const at = args.indexOf('-c');
  if (at < 0) return false;
  for (let index = 0; index < at; index++) if (!HARMLESS_OPTIONS.test(args[index] as string)) return false;
  const code = args[at + 1];
  return code !== undefined && onlyComputes(code);
}

/** Whether Python source only computes (see the module's note). */
export function onlyComputes(code: string): boolean {
  if (code.length > MAX_CODE_CHARS || code.trim() === '') return false;
  if (DYNAMIC.test(code) || WRITES.test(code) || USES_OF_OS.test(code)) return false;
  if (/\bopen\s*\(/.test(code) && WRITING_MODE.test(code)) return false;
  for (const match of code.matchAll(FROM_IMPORT)) {
    const module = match[1] as string;
    // Names taken out of `os` are used without it: what they do cannot be told from the code.
    if (module === 'os' || !computing(module)) return false;
  }
  for (const match of code.matchAll(IMPORT)) {
    for (const part of (match[1] as string).split(',')) {
      const module = part.trim().split(/\s+/)[0] ?? '';
      if (!computing(module)) return false;
    }
  }
  return true;
}

function computing(module: string): boolean {
  if (COMPUTING.has(module)) return true;
  const root = module.split('.')[0] as string;
  return root !== 'os' && root !== 'sys' && root !== 'urllib' && COMPUTING.has(root);
}

/** Node's options that hand it code on its command line (`node -e CODE`, `node -p EXPRESSION`). */
export const NODE_CODE_OPTIONS: ReadonlySet<string> = new Set(['-e', '--eval', '-p', '--print']);
/** Node's modules that read files or compute, by the name `require` or `import` gives them. */
const NODE_LOOKING_MODULES = new Set([
  'fs',
  'fs/promises',
  'path',
  'os',
  'util',
  'crypto',
  'buffer',
  'url',
  'assert',
  'zlib',
  'querystring',
  'string_decoder',
  'events',
]);
/** A module named in the code: `require('fs')`, `import('node:path')`, `from 'os'`. */
const NODE_MODULE = /\b(?:require|import)\s*\(\s*(['"`])([^'"`\n]*)\1|\bfrom\s*(['"])([^'"\n]*)\3/g;
/** A module named by a value the reading cannot follow (`require(name)`). */
const NODE_DYNAMIC_MODULE = /\b(?:require|import)\s*\(\s*[^'"`\s)]/;
/** `fs` functions that write, make, move or remove a file, or change its mode; any `open` may write. */
const NODE_FILE_CHANGES =
  /\b(?:write\w*|append\w*|rm|rmSync|rmdir\w*|unlink\w*|rename\w*|mkdir\w*|mkdtemp\w*|copyFile\w*|cp|cpSync|truncate\w*|f?symlink\w*|link\w*|chmod\w*|chown\w*|utimes\w*|createWriteStream|open\w*)\s*\(/;
/**
 * What runs code built at run time, reaches the network or acts on processes without a module: other
 * programs are run through `child_process`, which is no module that only looks.
 */
const NODE_RUNS_OR_REACHES = /\b(?:eval|Function|fetch)\s*\(|\bprocess\.(?:kill|chdir)\b/;
/** The process's own output, written without touching a file. */
const OWN_OUTPUT = /\bprocess\.std(?:out|err)\.write\s*\(/g;

/**
 * Whether Node code given on the command line only looks: it requires only modules that read or
 * compute (or a JSON file by its path), and calls nothing that writes a file, runs another program,
 * evaluates code or reaches the network. Longer code, or code it cannot follow, may change anything.
 */
export function nodeCodeOnlyLooks(code: string): boolean {
  if (code.length > MAX_CODE_CHARS || code.trim() === '') return false;
  const text = code.replace(OWN_OUTPUT, '(');
  if (NODE_FILE_CHANGES.test(text) || NODE_RUNS_OR_REACHES.test(text) || NODE_DYNAMIC_MODULE.test(text))
    return false;
  for (const match of text.matchAll(NODE_MODULE)) {
    const name = (match[2] ?? match[4] ?? '').replace(/^node:/, '');
    const json = (name.startsWith('./') || name.startsWith('../')) && name.endsWith('.json');
    if (!json && !NODE_LOOKING_MODULES.has(name)) return false;
  }
  return true;
}
