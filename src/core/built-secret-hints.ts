/**
 * The tables the scan for credentials' hints reads (see `hintsIn` in `./secrets.ts`), worked out
 * when the package is built: the build replaces this module with one that holds them
 * (scripts/bundle-tables.ts), so that a process reads them instead of working them out as it starts.
 * The sources hold none: run from them, the tables are worked out from the hint texts.
 */
export const BUILT_SECRET_HINTS: { readonly texts: string; readonly table: readonly number[] } | undefined =
  undefined;
