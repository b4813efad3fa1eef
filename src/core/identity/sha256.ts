/**
 * SHA-256 of a text's UTF-8 bytes, in plain TypeScript: what a long text's key is made from when no
 * native hash was handed to the engine (a browser, an edge runtime). It must give what Node's
 * `crypto.hash('sha256', text)` gives for every string, lone surrogates included (encoded as
 * U+FFFD, as Node encodes them), so that a key never depends on where it was computed.
 */

const ROUND_CONSTANTS = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const INITIAL_STATE = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/** One hashing at a time (hashing never calls itself), so the buffers are shared. */
const state = new Int32Array(8);
const schedule = new Int32Array(64);

function compress(): void {
  for (let index = 16; index < 64; index++) {
    const w15 = schedule[index - 15] as number;
    const w2 = schedule[index - 2] as number;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    schedule[index] = ((schedule[index - 16] as number) + s0 + (schedule[index - 7] as number) + s1) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  for (let index = 0; index < 64; index++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const choice = (e & f) ^ (~e & g);
    const t1 = (h + s1 + choice + (ROUND_CONSTANTS[index] as number) + (schedule[index] as number)) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const majority = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (s0 + majority) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = ((state[0] as number) + a) | 0;
  state[1] = ((state[1] as number) + b) | 0;
  state[2] = ((state[2] as number) + c) | 0;
  state[3] = ((state[3] as number) + d) | 0;
  state[4] = ((state[4] as number) + e) | 0;
  state[5] = ((state[5] as number) + f) | 0;
  state[6] = ((state[6] as number) + g) | 0;
  state[7] = ((state[7] as number) + h) | 0;
}

/** Bytes are gathered four at a time into the word they belong to, big-endian. */
let word = 0;
let filled = 0;
let byteCount = 0;

function pushByte(value: number): void {
  word = (word << 8) | value;
  if ((++filled & 3) === 0) {
    schedule[(filled >> 2) - 1] = word;
    word = 0;
    if (filled === 64) {
      compress();
      filled = 0;
    }
  }
}

/** The SHA-256 of `text`'s UTF-8 encoding, as 64 lowercase hex digits. */
export function sha256Hex(text: string): string {
  state.set(INITIAL_STATE);
  word = 0;
  filled = 0;
  byteCount = 0;
  const length = text.length;
  for (let index = 0; index < length; index++) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      pushByte(code);
      byteCount += 1;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = index + 1 < length ? text.charCodeAt(index + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        index++;
      } else {
        code = 0xfffd;
      }
    }
    if (code < 0x800) {
      pushByte(0xc0 | (code >> 6));
      pushByte(0x80 | (code & 63));
      byteCount += 2;
    } else if (code < 0x10000) {
      pushByte(0xe0 | (code >> 12));
      pushByte(0x80 | ((code >> 6) & 63));
      pushByte(0x80 | (code & 63));
      byteCount += 3;
    } else {
      pushByte(0xf0 | (code >> 18));
      pushByte(0x80 | ((code >> 12) & 63));
      pushByte(0x80 | ((code >> 6) & 63));
      pushByte(0x80 | (code & 63));
      byteCount += 4;
    }
  }
  const bits = byteCount * 8;
  pushByte(0x80);
  while (filled !== 56) pushByte(0);
  // The length in bits, as 64 bits big-endian: texts here are far below 2^53 bits.
  const high = Math.floor(bits / 0x100000000);
  pushByte((high >>> 24) & 255);
  pushByte((high >>> 16) & 255);
  pushByte((high >>> 8) & 255);
  pushByte(high & 255);
  pushByte((bits >>> 24) & 255);
  pushByte((bits >>> 16) & 255);
  pushByte((bits >>> 8) & 255);
  pushByte(bits & 255);
  let out = '';
  for (let index = 0; index < 8; index++)
    out += ((state[index] as number) >>> 0).toString(16).padStart(8, '0');
  return out;
}
