/**
 * Answers read from a tool's name. Agents use a few tool names over and over: each is read once,
 * and kept in a bounded map, since a hostile server may name tools without end.
 */

const MAX_CACHED_NAMES = 2048;

/** `read`, answered once per tool name; a name that is not text (a model's or a server's) is no. */
export function readOncePerName(read: (tool: string) => boolean): (tool: string) => boolean {
  let known = new Map<string, boolean>();
  return (tool) => {
    if (typeof tool !== 'string') return false;
    const cached = known.get(tool);
    if (cached !== undefined) return cached;
    const answer = read(tool);
    // Replaced rather than cleared when full: a cleared map keeps its grown table.
    if (known.size >= MAX_CACHED_NAMES) known = new Map();
    known.set(tool, answer);
    return answer;
  };
}
