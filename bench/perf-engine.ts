/** The parts of the engine the performance benchmark times, from the build or from the sources. */
import type { createToolCallAdapter } from '../src/adapters/tool-call/index.js';
import type { createJournal } from '../src/audit/index.js';
import type { NarrowingEngine } from '../src/core/loop.js';
import type { replayTrace } from '../src/replay/index.js';
import { chooseEngine, type EngineKind, engineModuleUrl } from './engine.js';

export interface PerfEngine {
  readonly kind: EngineKind;
  /** Why the sources are timed when the build was asked for. */
  readonly note?: string;
  readonly NarrowingEngine: typeof NarrowingEngine;
  readonly createToolCallAdapter: typeof createToolCallAdapter;
  readonly createJournal: typeof createJournal;
  readonly replayTrace: typeof replayTrace;
}

export async function loadPerfEngine(requested: EngineKind): Promise<PerfEngine> {
  const { kind, note } = chooseEngine(requested);
  const load = (path: string) => import(engineModuleUrl(kind, path));
  const [loop, adapter, audit, replay] = await Promise.all([
    load('core/loop'),
    load('adapters/tool-call/index'),
    load('audit/index'),
    load('replay/index'),
  ]);
  return {
    kind,
    ...(note !== undefined && { note }),
    NarrowingEngine: loop.NarrowingEngine,
    createToolCallAdapter: adapter.createToolCallAdapter,
    createJournal: audit.createJournal,
    replayTrace: replay.replayTrace,
  };
}
