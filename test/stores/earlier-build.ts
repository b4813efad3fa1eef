/**
 * A project in a temporary folder whose manifest the bans of an earlier build's state fixtures were
 * pinned to, and a guard's options that open it at the time those bans were alive.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Constraint } from '../../src/core/types.js';
import type { OpenGuardOptions } from '../../src/guard/open.js';
import { temporaryDir } from './sample-state.js';

/** Within the lifetime of the fixtures' bans. */
const CLOCK = { now: () => 1_764_000_100_000 };
/** The project's manifest the bans were pinned to (a missing script is about it). */
const PACKAGE_JSON = '{\n  "name": "orders-api",\n  "scripts": {\n    "build": "tsc -p ."\n  }\n}\n';

export interface EarlierBuildProject {
  /** The temporary folder: the project and every store of the test live in it. */
  readonly dir: string;
  /** The state folder of the file store. */
  readonly stateDir: string;
  /** Copies a state folder an earlier build wrote into `stateDir`. */
  copyState(fixture: string): void;
  /** The bans in the file store's state, as saved. */
  savedBans(): Constraint[];
  /** Options opening a guard on the project at the fixtures' time, with no journal and no context. */
  options(more?: Partial<OpenGuardOptions>): OpenGuardOptions;
  remove(): void;
}

/** The folder of a state an earlier build wrote, by its name under the stores' fixtures. */
export function earlierState(name: string): string {
  return join(import.meta.dirname, '../fixtures/stores', name);
}

/** The bans a state folder holds in its state file. */
export function bansIn(stateDir: string): Constraint[] {
  return JSON.parse(readFileSync(join(stateDir, 'state.json'), 'utf8')).constraints;
}

export function earlierBuildProject(): EarlierBuildProject {
  const { dir, remove } = temporaryDir();
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), PACKAGE_JSON);
  const stateDir = join(dir, 'state');
  return {
    dir,
    stateDir,
    copyState: (fixture) => cpSync(fixture, stateDir, { recursive: true }),
    savedBans: () => bansIn(stateDir),
    options: (more = {}) => ({
      workspaceRoot: project,
      journal: false,
      context: false,
      clock: CLOCK,
      onProblem: () => undefined,
      ...more,
    }),
    remove,
  };
}
