/**
 * What the AI SDK tests share: the coding workspace's tools as AI SDK tools, and a guard on the
 * workspace's state directory.
 */
import { type ToolSet, tool } from 'ai';
import { z } from 'zod';
import { type AiSdkGuardOptions, narrowingForAiSdk } from '../../../src/integrations/ai-sdk/index.js';
import { guardOptionsFor } from '../support/guard-options.js';
import type { Workspace } from '../support/workspace.js';

export function toolsFor(ws: Workspace): ToolSet {
  return {
    read_file: tool({
      description: 'Read a file of the project',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => ws.readFile(path),
    }),
    edit_file: tool({
      description: 'Replace the content of a file',
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path, content }) => ws.editFile(path, content),
    }),
    run_tests: tool({
      description: 'Run the test suite',
      inputSchema: z.object({}),
      execute: async () => ws.runTests(),
    }),
    fetch_url: tool({
      description: 'Fetch a URL',
      inputSchema: z.object({ url: z.string() }),
      execute: async ({ url }): Promise<string> => ws.fetchUrl(url),
    }),
  };
}

/** A guard keeping its state (and journal) in the workspace's state directory. */
export function guardFor(ws: Workspace, options: AiSdkGuardOptions = {}, policy?: object) {
  return narrowingForAiSdk(guardOptionsFor(ws, policy), options);
}
