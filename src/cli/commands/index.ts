import type { Command } from 'commander';
import { register as registerAgent } from './agent.js';
import { register as registerBench } from './bench.js';
import { register as registerDemo } from './demo.js';
import { register as registerExplain } from './explain.js';
import { register as registerFeedback } from './feedback.js';
import { register as registerForget } from './forget.js';
import { register as registerHook } from './hook.js';
import { register as registerInspect } from './inspect.js';
import { register as registerInstall } from './install.js';
import { register as registerMcp } from './mcp.js';
import { register as registerPolicy } from './policy.js';
import { register as registerReplay } from './replay.js';
import { register as registerReport } from './report.js';
import { register as registerTrace } from './trace.js';
import { register as registerUnwrap } from './unwrap.js';
import { register as registerVerify } from './verify.js';
import { register as registerWrap } from './wrap.js';

/** Every command registers itself; heavy modules are imported inside their action handlers. */
export type RegisterCommand = (program: Command) => void;

export const commandModules: RegisterCommand[] = [
  registerReplay,
  registerTrace,
  registerMcp,
  registerPolicy,
  registerBench,
  registerWrap,
  registerUnwrap,
  registerInspect,
  registerForget,
  registerVerify,
  registerExplain,
  registerHook,
  registerInstall,
  registerDemo,
  registerAgent,
  registerFeedback,
  registerReport,
];
