/**
 * The addresses an answer reports as where something is, which result digests mask with every other
 * memory address. A debugger's step answers where the program stopped (`0x0000555555400f5d in go ()`),
 * a disassembly or a memory dump lists what is at each address (`=> 0x401136 <main+4>: mov …`,
 * `0x7fffffffe3a0: 0x00000000`), a backtrace names each frame (`#1  0x00007ffff7a2d830 in
 * __libc_start_main`): those addresses are the state the answer reports, and two answers that differ
 * in them differ. An address inside a line that is about something else (`<Foo object at
 * 0x7f3a2b1c4d50>`, `Current thread 0x00007f8b1c2d3740`, a pointer among a call's arguments) is where
 * a run happened to put an object, drawn afresh on every run, and stays masked. A location is
 * compared by its offset within its page: a program loaded at a drawn base (a library's frames, run
 * again) keeps it, while a step of even one instruction changes it.
 */
import { hashString } from './hashing.js';

/** An address that leads its line (after `=>`, a frame number or `Breakpoint N,`), or that names the code it points into. */
const LOCATION =
  /^[ \t]*(?:=>[ \t]*)?(?:#\d+[ \t]+)?(?:Breakpoint \d+, )?(0x[0-9a-fA-F]{8,16})\b|\b(0x[0-9a-fA-F]{8,16})(?=[ \t]+(?:<[\w.$@]|in[ \t]+[\w.$~<]))/gm;
/** Only the head of a long answer is scanned: what a step reports is at its start. */
const SCANNED = 100_000;

/**
 * The location addresses of `text`, in order, as one short string ('' when it holds none): two
 * answers alike once volatile values are masked report the same state only when these agree too.
 */
export function locationAddresses(text: string): string {
  if (!text.includes('0x')) return '';
  const scanned = text.length > SCANNED ? text.slice(0, SCANNED) : text;
  const found: string[] = [];
  for (const match of scanned.matchAll(LOCATION)) {
    const address = match[1] ?? match[2];
    // Its offset within its page: the part that stays where the system loads a program at a drawn
    // base (the same frame of a library run again), and that moves when the program does.
    if (address !== undefined) found.push(address.slice(-3).toLowerCase());
  }
  const joined = found.join(' ');
  return joined.length > 256 ? hashString(joined) : joined;
}
