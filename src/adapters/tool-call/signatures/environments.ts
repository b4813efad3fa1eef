/**
 * The environment tools run in: interpreters, shared libraries, virtual environments, the working
 * directory. The words each failure kind is recognised by; `kinds.ts` says what each means.
 */
import type { FamilyTable } from './vocabulary.js';

export const ENVIRONMENTS: FamilyTable = {
  /** the environment itself is broken: interpreter, shared libraries, working directory */
  brokenEnvironment: {
    patterns: [
      '\\berror while loading shared libraries\\b',
      '\\bcannot open shared object file\\b',
      '\\bbad interpreter\\b',
      "\\bversion `?(?:glibc|glibcxx|cxxabi)_[\\d.]+'? not found\\b",
      '\\billegal instruction\\b',
      '\\bexec format error\\b',
      '\\bcannot execute binary file\\b',
      '\\bgetcwd: cannot access parent directories\\b',
      '\\berror retrieving current directory\\b',
      '\\buv_cwd\\b',
      '\\bcurrent working directory (?:was |has been )?(?:deleted|removed)\\b',
      '\\bfatal python error\\b',
      '\\bno module named [\'"]?(?:encodings|pip|ensurepip|_ctypes|_ssl|_sqlite3|_bz2|_lzma|zlib|venv|distutils)[\'"]?(?![\\w.])',
      '\\bdyld(?:\\[\\d+\\])?: library not loaded\\b',
      "^/usr/bin/env: ['‘]?[\\w.+-]+['’]?: no such file or directory\\b",
      '\\bno python at\\b',
      '\\b(?:virtualenv|virtual environment|venv)\\b[^\\n]{0,60}\\b(?:is )?(?:broken|corrupt(?:ed)?|not (?:found|activated|created successfully))\\b',
      '\\binterpreter (?:not found|is missing|was not found)\\b',
      '\\bcorrupt(?:ed)? (?:installation|install|environment|cache)\\b',
      // a repository's or a package cache's own files damaged on disk
      '\\bloose object [0-9a-f]{4,64}\\b[^\\n]{0,120}\\bis corrupt\\b',
      '\\bobject file \\S{1,300} is empty\\b',
      '\\bEINTEGRITY\\b',
      '\\bintegrity checksum failed\\b',
      // a locale the system does not have (`locale: Cannot set LC_ALL to default locale`)
      '\\bcannot set lc_\\w+ to default locale\\b',
      '\\bsetting locale failed\\b',
      // a toolchain the build needs is not installed (Rust's `linker \`cc\` not found`, Xcode's
      // `xcrun: error: invalid active developer path`)
      '\\blinker [`\'"]?[\\w.+-]{1,60}[`\'"]? not found\\b',
      '\\binvalid active developer path\\b',
      // an SDK whose licences nobody on the machine accepted (`some licences have not been accepted`)
      '\\blicen[cs]e(?:s| agreements?)? (?:have|has) not been accepted\\b',
      // a toolchain's download that came damaged (`hash mismatch of downloaded file`)
      '\\bhash mismatch (?:of|for) (?:the )?downloaded\\b',
      // an interpreter the machine has but has not switched on (`The python3.7 command exists in
      // these Python versions:`), or one built without a library the system lacks (`The Python ssl
      // extension was not compiled. Missing the OpenSSL lib?`)
      '\\bcommand exists in these [\\w.]{1,20} versions\\b',
      '\\bextension was not compiled\\b',
      // a tool that runs its work in containers on a machine with no container runtime
      '\\bno container engine found\\b',
      // a machine without the terminal, key, driver or device a tool needs (gpg's `Inappropriate
      // ioctl for device` and `no default secret key`, `Found no NVIDIA driver on your system`, ROCm's
      // `HIP error: invalid device function`), or a command line that is not installed (`… cli not found`)
      '\\binappropriate ioctl for device\\b',
      '\\bno default secret key\\b',
      '\\bfound no nvidia driver\\b',
      '\\bhip error: invalid device function\\b',
      '\\b[\\w-]{1,30} cli (?:is )?not (?:found|installed)\\b',
      // an SDK of the version a project pins that the machine does not have (`A compatible SDK
      // version for global.json version: [8.0.100] … was not found`)
      '\\bcompatible (?:\\.net )?sdk version\\b[^\\n]{0,300}\\bwas not found\\b',
      // a machine whose policy or whose driver stops what the call runs (PowerShell's `… cannot be
      // loaded because running scripts is disabled on this system`, `NVIDIA-SMI has failed because it
      // couldn't communicate with the NVIDIA driver`), or WSL's own interop failing (`WSL (13) ERROR: …`)
      '\\brunning scripts is disabled on this system\\b',
      "\\b(?:couldn't|could not|cannot|can't|unable to) communicate with the [\\w ]{0,30}driver\\b",
      '\\bwsl \\(\\d+\\) error:',
      // a program built without what the call asks of it (curl's `… not found built-in in this libcurl
      // due to a build-time decision`, `Python was built without SSL support`)
      '\\bnot (?:found )?built-in in this [\\w.+-]{1,30}\\b',
      '\\b(?:was |is )?(?:built|compiled) without (?:support for\\b|[\\w/.+-]{1,30} support\\b)',
      // git with no identity configured to commit under (`Author identity unknown`, `Please tell me who you are`)
      '\\bauthor identity unknown\\b',
      '\\bplease tell me who you are\\b',
      '\\bunable to auto-detect email address\\b',
      // A script at a path (not a shell) that reports a command it runs as missing: the script's
      // own dependency is not installed, which no change of the call that ran the script can fix.
      '(?:^|\\s)(?:[\\w.~-]*/)+(?!(?:ba|z|k|da)?sh:)[\\w.-]+: line \\d+: [^\\s:]+: command not found\\b',
    ],
    hints: [
      'sdk version',
      'not been accepted',
      'hash mismatch',
      'command exists in these',
      'was not compiled',
      'container engine',
      'inappropriate ioctl',
      'secret key',
      'nvidia driver',
      'invalid device function',
      'cli not',
      'cli is not',
      'shared libraries',
      'shared object',
      'bad interpreter',
      'glibc',
      'cxxabi',
      'illegal instruction',
      'exec format',
      'binary file',
      'getcwd',
      'current directory',
      'uv_cwd',
      'working directory',
      'fatal python error',
      'no module named',
      'library not loaded',
      '/usr/bin/env',
      'no python at',
      'virtualenv',
      'virtual environment',
      'venv',
      'interpreter',
      'corrupt',
      'object file',
      'eintegrity',
      'integrity checksum',
      'default locale',
      'setting locale',
      'linker',
      'active developer path',
      'running scripts is disabled',
      'communicate with the',
      'wsl (',
      'built-in in this',
      'built without',
      'compiled without',
      'identity unknown',
      'who you are',
      'auto-detect email',
      'command not found',
    ],
  },
};
