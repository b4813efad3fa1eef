/**
 * Tool names in any convention (`read_file`, `readFile`, `read-file`, `fs.read`, `WebFetch`,
 * `mcp__github__get_issue`, `mcp_github_get_issue`) broken into lower-case words.
 */

const MAX_NAME_LENGTH = 200;

export function nameWords(name: string): string[] {
  const spaced = name
    .slice(0, MAX_NAME_LENGTH)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return spaced
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/**
 * The word lists worth reading, most specific first. The server part of an MCP name says nothing about
 * what the tool does (a server called `memory` or `shell` would mislead), so it is dropped; where the
 * boundary is ambiguous (`mcp_read_file` has no server), the whole name is the fallback.
 */
export function nameReadings(name: string): string[][] {
  const doubled = name.split('__');
  if (doubled.length >= 3 && doubled[0]?.toLowerCase() === 'mcp') {
    return [nameWords(doubled.slice(2).join('_'))];
  }
  const words = nameWords(name);
  if (words[0] === 'mcp' && words.length >= 3 && /^mcp_/i.test(name)) {
    return [words.slice(2), words.slice(1)];
  }
  const end = lastSeparator(name);
  if (end >= 0) return [nameWords(name.slice(end + 1)), words];
  return [words];
}

/**
 * Where the name's last `.` or `/` stands, or -1. Looked for without a pattern: every call reads its
 * tool's name, and a fresh process compiles each pattern it runs, twice (the second time to machine
 * code), which its first calls pay for.
 */
function lastSeparator(name: string): number {
  return Math.max(name.lastIndexOf('.'), name.lastIndexOf('/'));
}

/**
 * The server or namespace part of a tool name (`github` in `mcp__github__create_issue` or
 * `github.create_issue`), or `''` when the name has none: tools of one server share its state.
 */
export function serverOf(name: string): string {
  const doubled = name.split('__');
  if (doubled.length >= 3 && doubled[0]?.toLowerCase() === 'mcp')
    return (doubled[1] ?? '').slice(0, MAX_NAME_LENGTH);
  const bounded = name.slice(0, MAX_NAME_LENGTH);
  const end = lastSeparator(bounded);
  return end >= 0 ? bounded.slice(0, end).replaceAll('/', '.') : '';
}
