import type { CommandIO } from '../../../src/cli/commands/io.js';

/** Captures what a command writes. */
export function captureIO(options: { tty?: boolean; env?: Record<string, string> } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = {
    stdout: { write: (text: string) => out.push(text), isTTY: options.tty ?? false },
    stderr: { write: (text: string) => err.push(text) },
    env: options.env ?? {},
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}
