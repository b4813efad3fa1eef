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
  const dotted = name.split(/[./]/);
  if (dotted.length >= 2) {
    const last = dotted[dotted.length - 1] ?? '';
    return [nameWords(last), words];
  }
  return [words];
}

/**
 * The server or namespace part of a tool name (`github` in `mcp__github__create_issue` or
 * `github.create_issue`), or `''` when the name has none: tools of one server share its state.
 */
export function serverOf(name: string): string {
  const doubled = name.split('__');
  if (doubled.length >= 3 && doubled[0]?.toLowerCase() === 'mcp')
    return (doubled[1] ?? '').slice(0, MAX_NAME_LENGTH);
  const dotted = name.slice(0, MAX_NAME_LENGTH).split(/[./]/);
  return dotted.length >= 2 ? dotted.slice(0, -1).join('.') : '';
}
