import type { Tool } from '@modelcontextprotocol/server';
import type { ToolAnnotations } from '../core/types.js';

/** What a proposal learns from a tool's listing: its hints and the shape of its input. */
export interface ToolDescription {
  readonly annotations?: ToolAnnotations;
  readonly inputSchema?: unknown;
}

const MAX_TOOLS = 10_000;

/**
 * The tools the upstream has listed, by name. Filled from the `tools/list` answers that pass
 * through the proxy, so it costs no extra round trip; cleared when the upstream says its list
 * changed or when it restarts.
 */
export class ToolCatalog {
  private readonly tools = new Map<string, ToolDescription>();
  /** A full listing has been seen since the last change: an unknown name is really unknown. */
  private complete = false;
  private filling: Promise<void> | undefined;

  remember(tools: readonly Tool[], { lastPage }: { lastPage: boolean }): void {
    for (const tool of tools) {
      if (this.tools.size >= MAX_TOOLS && !this.tools.has(tool.name)) break;
      this.tools.set(tool.name, {
        ...(tool.annotations && { annotations: tool.annotations as ToolAnnotations }),
        inputSchema: tool.inputSchema,
      });
    }
    if (lastPage) this.complete = true;
  }

  describe(name: string): ToolDescription | undefined {
    return this.tools.get(name);
  }

  /**
   * Runs `list` (which remembers what it fetches) unless a full listing is known. Calls that arrive
   * while it runs wait for the same listing rather than starting their own.
   */
  async fill(list: () => Promise<void>): Promise<void> {
    if (this.complete) return;
    this.filling ??= list().finally(() => {
      this.filling = undefined;
    });
    await this.filling;
  }

  clear(): void {
    this.tools.clear();
    this.complete = false;
  }
}
