/** Where a command writes; tests pass their own. */
export interface CommandOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CommandIO {
  readonly stdout: CommandOutput;
  readonly stderr: CommandOutput;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export function processIO(): CommandIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env };
}

/** Colour only on a terminal, and never when NO_COLOR is set to anything non-empty. */
export function wantsColour(io: CommandIO): boolean {
  return io.stdout.isTTY === true && !io.env.NO_COLOR;
}
