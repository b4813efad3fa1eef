/** Calls said in a few words, for evidence and the reasons a model reads. */
import { canonicalJson } from './canonical-json.js';

/** A short, readable form of a call for evidence and reasons: `read_file {path: "a.ts"}`. */
export function describeCall(tool: string, args: unknown, limit = 120): string {
  let body: string;
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    const entries = Object.entries(args as Record<string, unknown>).slice(0, 4);
    body = entries
      .map(([key, value]) => {
        const shown = typeof value === 'string' ? JSON.stringify(truncate(value, 60)) : shortJson(value);
        return `${key}: ${shown}`;
      })
      .join(', ');
  } else {
    body = shortJson(args);
  }
  return truncate(`${tool} {${body}}`, limit);
}

function shortJson(value: unknown): string {
  return truncate(canonicalJson(value, { maxString: 60 }), 60);
}

export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 1))}…`;
}
