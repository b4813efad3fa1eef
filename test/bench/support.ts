import type { CommandIO } from '../../src/cli/commands/io.js';

/** A command's standard output and error, captured. */
export function captureIO(): { io: CommandIO; stdout: () => string; stderr: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CommandIO = {
    stdout: { write: (text: string) => out.push(text), isTTY: false },
    stderr: { write: (text: string) => err.push(text) },
    env: {},
  };
  return { io, stdout: () => out.join(''), stderr: () => err.join('') };
}

/**
 * A small well-formedness check for the SVG we write: one root, and every element that is opened is
 * closed in order (self-closing elements aside).
 */
export function svgProblems(svg: string): string[] {
  const problems: string[] = [];
  if (!svg.startsWith('<svg')) problems.push('does not start with <svg');
  if (!svg.trimEnd().endsWith('</svg>')) problems.push('does not end with </svg>');
  const stack: string[] = [];
  for (const match of svg.matchAll(/<(\/?)([a-zA-Z][\w:-]*)([^>]*?)(\/?)>/g)) {
    const [, closing, name, , selfClosing] = match;
    if (selfClosing === '/') continue;
    if (closing === '/') {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}>`);
    } else {
      stack.push(name as string);
    }
  }
  if (stack.length > 0) problems.push(`unclosed: ${stack.join(', ')}`);
  const text = svg.replace(/<[^>]*>/g, '');
  if (/[<>]|&(?!amp;|lt;|gt;|quot;|#\d+;)/.test(text)) problems.push('unescaped text');
  return problems;
}
