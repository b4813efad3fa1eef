/**
 * Package managers and build tools that fetch packages (npm, pip, cargo, apt, terraform).
 * The words each failure kind is recognised by; `kinds.ts` says what each kind means.
 */
import type { FamilyTable } from './vocabulary.js';

export const PACKAGE_MANAGERS: FamilyTable = {
  permission: {
    patterns: ['\\bENEEDAUTH\\b', '\\bneed auth\\b', '\\bE(?:401|403)\\b'],
    hints: ['eneedauth', 'need auth'],
  },
  locked: {
    patterns: [
      '\\b(?:could not|unable to|failed to) (?:get|acquire|obtain|lock|create) (?:the )?(?:\\w+ )?(?:frontend )?lock\\b',
      '\\berror acquiring the state lock\\b',
      '\\bblocking waiting for file lock\\b',
    ],
    hints: ['lock'],
  },
  wrongDirectory: {
    patterns: [
      '\\bcould not find `?[\\w.-]+\\.(?:toml|json|mod|xml|lock|ya?ml|gradle|cfg)`? in\\b',
      '\\bno configuration files\\b',
      '\\bno package\\.json\\b',
      // Go run outside any module (`go: cannot find main module, but found .git/config in /app`)
      '\\bcannot find main module\\b',
    ],
    hints: ['could not find', 'no configuration files', 'no package.json', 'cannot find main module'],
  },
  idMissing: {
    patterns: [
      '\\bunknown (?:revision|ref|branch|remote|commit|tag|object|id|entity|resource|model|channel|user|project|bucket|key|table|column|database|relation|package|version|target|variable|field|manifest|blob|image|container)\\b',
      '\\bmanifest unknown\\b',
      // Yarn's resolver finding nothing for a name and range (`reactt-dom@npm:^18.9.0: No candidates found`)
      '\\bno (?:workspaces?|projects?|packages?|dependencies|targets?|tests?|files?|matches|candidates) (?:were )?found\\b',
      '\\bno matching (?:version|distribution|package|manifest)\\b',
      '\\bcould not find a version that satisfies\\b',
      '\\bE404\\b',
      '\\bETARGET\\b',
      '\\bis not in (?:this|the npm) registry\\b',
      '\\b(?:package|packages)\\(s\\) not found\\b',
      '\\bno (?:dependencies|packages|matches|results) found matching\\b',
      '\\bmissing script\\b',
      // a package, gem or artifact that no repository holds: apt's `Unable to locate package`,
      // Bundler's `Could not find gem 'railz' in rubygems repository`, Gradle's `Could not find
      // com.foo:bar:1.0.` (group, name and version)
      '\\bunable to locate package\\b',
      // conda's `ResolvePackageNotFound:` and `PackagesNotFoundError:`
      '\\b(?:resolve)?packages?notfound(?:error)?\\b',
      "\\bcould not find gem '",
      '\\bcould not find [\\w.-]+:[\\w.-]+:[\\w.+-]+',
    ],
    hints: [
      'not found',
      'unknown',
      'found',
      'no matching',
      'satisfies',
      'e404',
      'etarget',
      'registry',
      '(s) not found',
      'found matching',
      'missing script',
      'locate package',
      'packagenotfound',
      'packagesnotfound',
      'could not find',
    ],
  },
  syntax: {
    patterns: ['\\bEJSONPARSE\\b'],
    hints: ['parse', 'ejsonparse'],
  },
  // A resolver's report on the requirements the agent wrote: the packages, versions and paths it
  // quotes are the agent's words (a package that "is forbidden" by the versions it depends on is no
  // permission of the session's).
  dependencyConflict: {
    patterns: [
      '\\bERESOLVE\\b',
      '\\bunable to resolve dependency tree\\b',
      '\\bversion solving failed\\b',
      '\\bno solution found when resolving dependencies\\b',
      '\\brequirements are unsatisfiable\\b',
      '\\bResolutionImpossible\\b',
      // `Could not satisfy dependency lua >= 5.1, < 5.4`
      '\\bcould not satisfy (?:the )?(?:dependenc(?:y|ies)|requirements?)\\b',
      // Cargo's resolver (`failed to select a version for gdk-sys`)
      '\\bfailed to select a version for\\b',
    ],
    hints: [
      'eresolve',
      'dependency tree',
      'version solving',
      'no solution found',
      'unsatisfiable',
      'resolutionimpossible',
      'could not satisfy',
      'select a version',
    ],
  },
  conflict: {
    patterns: [
      '\\bcould not resolve dependency\\b',
      '\\bconflicting peer dependency\\b',
      '\\bcannot satisfy\\b',
      '\\bdependency conflict\\b',
      '\\binconsistent dependency lock file\\b',
      '\\b(?:backend|plugin|provider|module)s? (?:re)?initiali[sz]ation required\\b',
      '\\bmodule not installed\\b',
    ],
    hints: [
      'conflict',
      'resolve dependency',
      'peer dependency',
      'cannot satisfy',
      'dependency conflict',
      'inconsistent dependency lock',
      'initiali',
      'module not installed',
    ],
  },
  command: {
    patterns: ['\\bnpm ERR!', '^npm error\\b', '\\bELIFECYCLE\\b'],
    hints: ['npm err', 'npm error', 'elifecycle'],
  },
};
