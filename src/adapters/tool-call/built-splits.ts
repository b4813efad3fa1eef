/**
 * The built-in rules split into their alternatives and hints, worked out when the package is built:
 * the build replaces this module with one that holds the table (scripts/bundle-tables.ts), so that
 * a process reads it instead of parsing some 40,000 characters of patterns on its first failure.
 * The sources hold none: run from them, the matcher splits the rules itself (see `./split-table.ts`).
 */
export const BUILT_SPLITS: string | undefined = undefined;
