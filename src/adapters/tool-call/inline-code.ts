/**
 * Code handed to an interpreter on its command line (`python3 -c "import base64; print(…)"`) that
 * only computes: it imports modules that compute and nothing that reaches files, processes or the
 * network, opens no file for writing and evaluates no code built at run time. Running it changes
 * nothing another call can see: what it tells the agent is new, what it leaves behind is not. Any
 * doubt makes it a command of unknown effects, as before.
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
const IMPORT = /(?:^|[\n;])\s*import\s+([^\n;]+)/g;
const FROM_IMPORT = /(?:^|[\n;])\s*from\s+([\w.]+)\s+import\b/g;

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
