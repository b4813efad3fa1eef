/**
 * A command's subcommand: its first argument that is not an option nor the value of one of
 * `valuedOptions` (`git -C repo status` → `status`, `npm --prefix web install` → `install`). Each
 * caller names the options that take a value in the programs it reads.
 */
export function subcommandOf(
  args: readonly string[],
  valuedOptions: ReadonlySet<string>,
): string | undefined {
  return args[subcommandIndex(args, valuedOptions)];
}

/** Where `subcommandOf` finds the subcommand in `args`; `args.length` when there is none. */
export function subcommandIndex(args: readonly string[], valuedOptions: ReadonlySet<string>): number {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (valuedOptions.has(arg)) index++;
    else if (!arg.startsWith('-')) return index;
  }
  return args.length;
}
