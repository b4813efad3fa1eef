/**
 * 64 bits of a text as 16 hex digits (two 32-bit FNV-1a lanes): names a file (the hook helper's socket,
 * a code cache) and guards nothing; the folder it is in does. A hash from `node:crypto` would load
 * that module into every hook process.
 */
export function textKey(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    a = Math.imul(a ^ code, 0x01000193);
    b = Math.imul(b ^ code, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
