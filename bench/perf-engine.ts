/** The parts of the engine the performance benchmark times, from the build or from the sources. */

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  createToolCallAdapter,
  toolCallToOutcome,
  toolCallToProposal,
} from '../src/adapters/tool-call/index.js';
import type { createJournal } from '../src/audit/index.js';
import type { runReplay } from '../src/cli/commands/replay.js';
import type { NarrowingEngine } from '../src/core/loop.js';
import type { replayTrace } from '../src/replay/index.js';
import { chooseEngine, type EngineKind, engineModuleUrl } from './engine.js';

export interface PerfEngine {
  readonly kind: EngineKind;
  /** Why the sources are timed when the build was asked for. */
  readonly note?: string;
  readonly NarrowingEngine: typeof NarrowingEngine;
  readonly createToolCallAdapter: typeof createToolCallAdapter;
  readonly toolCallToProposal: typeof toolCallToProposal;
  readonly toolCallToOutcome: typeof toolCallToOutcome;
  readonly createJournal: typeof createJournal;
  readonly replayTrace: typeof replayTrace;
  /** `narrowing replay FILE`, as the command line runs it. */
  readonly runReplay: typeof runReplay;
}

export async function loadPerfEngine(requested: EngineKind): Promise<PerfEngine> {
  const { kind, note } = chooseEngine(requested);
  return loadEngineModules(kind, note, (path) => engineModuleUrl(kind, path));
}

/**
 * The engine built into another folder (the `dist/` of another checkout, or a copy of this one's
 * kept from before a change), for timing two builds against each other in one process. A folder of
 * TypeScript sources (`src/`) is loaded as the sources.
 */
export async function loadPerfEngineFrom(directory: string): Promise<PerfEngine> {
  const root = resolve(directory);
  const extension = existsSync(join(root, 'core', 'loop.js')) ? 'js' : 'ts';
  if (!existsSync(join(root, 'core', `loop.${extension}`))) {
    throw new Error(`${root} holds no build of the engine (no core/loop.js): run \`npm run build\` there`);
  }
  const kind: EngineKind = extension === 'js' ? 'dist' : 'source';
  return loadEngineModules(kind, undefined, (path) => pathToFileURL(join(root, `${path}.${extension}`)).href);
}

async function loadEngineModules(
  kind: EngineKind,
  note: string | undefined,
  url: (path: string) => string,
): Promise<PerfEngine> {
  const load = (path: string) => import(url(path));
  const [nativeHash, loop, adapter, audit, replay, replayCommand] = await Promise.all([
    load('node/native-hash'),
    load('core/loop'),
    load('adapters/tool-call/index'),
    load('audit/index'),
    load('replay/index'),
    load('cli/commands/replay'),
  ]);
  // As `openGuard` does: long texts hashed by Node's SHA-256.
  nativeHash.installNativeHash();
  return {
    kind,
    ...(note !== undefined && { note }),
    NarrowingEngine: loop.NarrowingEngine,
    createToolCallAdapter: adapter.createToolCallAdapter,
    toolCallToProposal: adapter.toolCallToProposal,
    toolCallToOutcome: adapter.toolCallToOutcome,
    createJournal: audit.createJournal,
    replayTrace: replay.replayTrace,
    runReplay: replayCommand.runReplay,
  };
}
