import type { Command } from 'commander';
import { register as registerMcp } from './mcp.js';
import { register as registerPolicy } from './policy.js';
import { register as registerReplay } from './replay.js';
import { register as registerTrace } from './trace.js';

/** Every command registers itself; heavy modules are imported inside their action handlers. */
export type RegisterCommand = (program: Command) => void;

export const commandModules: RegisterCommand[] = [registerReplay, registerTrace, registerMcp, registerPolicy];
