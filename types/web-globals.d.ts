/**
 * Used only by the purity check (`tsconfig.core.json`): the core compiles without Node's or the
 * DOM's type libraries, with just the one web-standard global it uses, because it must run in
 * browsers, edge runtimes, Bun and Deno alike.
 */
declare class URL {
  constructor(input: string, base?: string);
  hash: string;
  host: string;
  hostname: string;
  href: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  username: string;
  password: string;
  toString(): string;
}
