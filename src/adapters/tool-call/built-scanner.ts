/**
 * The built-in rules' hint scanner, worked out when the package is built: the build replaces this
 * module with one that holds its table (scripts/bundle-tables.ts), so that a process lays the
 * scanner out from it instead of building it on its first failure. The sources hold none: run from
 * them, the scanner is built (see `./hint-table.ts`). `hints` are the hints it finds, joined by NUL.
 */
export const BUILT_SCANNER: { readonly hints: string; readonly table: string } | undefined = undefined;
