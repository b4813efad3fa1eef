import type { Command } from 'commander';

/** Every command registers itself; heavy modules are imported inside their action handlers. */
export type RegisterCommand = (program: Command) => void;

export const commandModules: RegisterCommand[] = [];
