/**
 * A command line that writes the very file its failure says is missing (`cat prd.json | jq '…' >
 * prd.tmp && mv prd.tmp prd.json`): one part of the line failed on the file and a later part made
 * it, so the same line run again finds it. The failure stays what it was; what the line wrote is a
 * change, as a success's would be.
 */
import { missingPaths } from './raced-file.js';
import { normalizeTarget } from './targets.js';

/** Longer lines are not searched for where they write. */
const MAX_LINE_CHARS = 4096;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether `line` writes `path` as a destination: a redirection into it, an operand of `tee` or
 * `touch`, or the last operand of a command that copies or moves into its last one (`mv a b`).
 */
function writesInto(line: string, path: string): boolean {
  const file = `(['"]?)${escaped(path)}\\1`;
  const end = '(?=$|[\\s;&|)])';
  const patterns = [
    new RegExp(`>{1,2}\\|?\\s*${file}${end}`),
    new RegExp(`(?:^|[\\s;&|(])(?:tee|touch)\\s(?:[^;&|\\n]*\\s)?${file}${end}`),
    new RegExp(`(?:^|[\\s;&|(])(?:mv|cp|ln|install|rsync)\\s(?:[^;&|\\n]*\\s)?${file}\\s*(?=$|[;&|)\\n])`),
  ];
  return patterns.some((pattern) => pattern.test(line));
}

/**
 * Whether the failure's missing files are all ones the line itself writes into (`touches`: what it
 * writes, read from it in full), so that running it made them.
 */
export function makesWhatItMissed(
  text: string,
  line: string,
  touches: readonly string[] | undefined,
): boolean {
  if (touches === undefined || touches.length === 0 || line.length > MAX_LINE_CHARS) return false;
  const paths = missingPaths(text);
  if (paths.length === 0) return false;
  return paths.every((path) => touches.includes(normalizeTarget(path)) && writesInto(line, path));
}
