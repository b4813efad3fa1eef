/**
 * Gemini CLI marks what a tool brought in from outside (a command's output, an MCP tool's text
 * parts, a fetched page) as untrusted before the model reads it: `<untrusted_context>\n…\n
 * </untrusted_context>`, a closing tag inside written `&lt;/untrusted_context&gt;`
 * (`wrapUntrusted` in packages/core/src/utils/textUtils.ts, since June 2026). Its hooks get the
 * marked text, and its chat records keep it in the function responses. The marks say nothing about
 * the call: what is read is the text inside them, as versions before wrote it.
 */
const OPEN = '<untrusted_context>\n';
const CLOSE = '\n</untrusted_context>';
const CLOSE_ESCAPED = '&lt;/untrusted_context&gt;';

/** `text` without Gemini CLI's untrusted marks around it (and with its escaped closing tags given back). */
export function withoutUntrustedMarks(text: string): string {
  if (text.length < OPEN.length + CLOSE.length || !text.startsWith(OPEN) || !text.endsWith(CLOSE)) {
    return text;
  }
  const inner = text.slice(OPEN.length, text.length - CLOSE.length);
  return inner.includes(CLOSE_ESCAPED) ? inner.replaceAll(CLOSE_ESCAPED, '</untrusted_context>') : inner;
}
