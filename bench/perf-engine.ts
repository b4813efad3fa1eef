/** The parts of the engine the performance benchmark times, from the build or from the sources. */
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
  const load = (path: string) => import(engineModuleUrl(kind, path));
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
