/**
 * The adapter's answers to what the engine asks about a developer's workspace (`WorkspaceKnowledge`):
 * which paths builds regenerate, which files configure every command, and what a command line names
 * or acts on, the last read by the shell reader, and which files are a program's own.
 */
import type { WorkspaceKnowledge } from '../../core/types.js';
import { programHolding, runsProgram } from './person-waits.js';
import { lineOperands } from './windows-shell.js';
import { commandMentions, commandTargets, isGeneratedPath, isProjectConfiguration } from './workspace.js';

export const toolCallWorkspace: WorkspaceKnowledge = {
  isGenerated: isGeneratedPath,
  isConfiguration: isProjectConfiguration,
  mentions: commandMentions,
  isAboutMissingFile: (signature) => signature === 'file_not_found',
  targetsIn: commandTargets,
  operandsIn: lineOperands,
  programHolding,
  runsProgram,
};
