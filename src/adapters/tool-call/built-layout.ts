/**
 * The built-in rules' matcher laid out when the package is built: the build replaces this module
 * with one that holds it (scripts/bundle-tables.ts), so that a process reads it instead of parsing
 * some 40,000 characters of patterns and mapping a thousand hints on its first failure. The sources
 * hold none: run from them, the matcher lays itself out (see `ShippedLayout` in `./layout-table.ts`).
 */
export const BUILT_LAYOUT:
  | {
      readonly sources: readonly string[];
      readonly keys: string;
      readonly hints: string;
      readonly table: string;
      readonly partHints: string;
    }
  | undefined = undefined;
