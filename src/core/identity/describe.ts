/** Calls said in a few words, for evidence and the reasons a model reads. */
import { redactText } from '../secrets.js';
import { canonicalJson } from './canonical-json.js';

/** A short, readable form of a call for evidence and reasons: `read_file {path: "a.ts"}`. */
export function describeCall(tool: string, args: unknown, limit = 120): string {
  let body: string;
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    const entries = Object.entries(args as Record<string, unknown>).slice(0, 4);
    body = entries
      .map(([key, value]) => {
        // Redacted before it is cut: a secret cut in half is no longer recognised as one.
        const shown =
          typeof value === 'string' ? JSON.stringify(shortenMiddle(redactText(value), 60)) : shortJson(value);
        return `${key}: ${shown}`;
      })
      .join(', ');
  } else {
    body = shortJson(args);
  }
  return truncate(`${tool} {${body}}`, limit);
}

function shortJson(value: unknown): string {
  return truncate(redactText(canonicalJson(value, { maxString: REDACTION_WINDOW })), 60);
}

/** How much of a value is redacted before its first 60 characters are shown. */
const REDACTION_WINDOW = 240;

/**
 * Cuts a long text in its middle: the end of a path, a URL or a command names what it acts on
 * (`…/src/config.ts`), so both ends stay.
 */
function shortenMiddle(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const tail = Math.floor((limit - 1) * 0.6);
  return `${text.slice(0, limit - 1 - tail)}…${text.slice(text.length - tail)}`;
}

export function truncate(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, Math.max(0, limit - 1))}…`;
}
