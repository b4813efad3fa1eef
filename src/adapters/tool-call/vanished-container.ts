/**
 * A container gone from under a call. Docker answers `No such container: NAME` both when a sandbox's
 * container vanished while its harness runs every command of the agent inside it (the environment's
 * failure: whatever the agent sends next fails alike until the sandbox is back) and when the agent
 * asked for a container by a name that does not exist (`docker logs shop-backend-1`: its own guess).
 * The call's arguments tell the two apart: only a call that names the container guessed it.
 */

import { argumentsHold } from './argument-texts.js';

const NO_SUCH_CONTAINER = /\bError response from daemon: No such container: ?([\w.-]*)/i;
/** The daemon's answer when the container a command was sent into has stopped. */
const STOPPED_CONTAINER = /\bError response from daemon: Container ([\w.-]+) is not running\b/i;
/** The head of the text the answer is looked for in: the daemon's line opens a command's output. */
const SCANNED_CHARS = 4096;

/** Whether the failure says the call's container is gone, and the call did not name that container. */
export function containerGoneUnderCall(text: string, args: Readonly<Record<string, unknown>>): boolean {
  const match = NO_SUCH_CONTAINER.exec(text.slice(0, SCANNED_CHARS));
  if (match === null) return false;
  const name = match[1] ?? '';
  return name === '' || !argumentsHold(args, name);
}

/**
 * Whether the failure says the container the call ran in is gone or stopped, and the call did not
 * name that container: the sandbox the agent worked in was lost, with every file and process in it.
 */
export function sandboxLostUnderCall(text: string, args: Readonly<Record<string, unknown>>): boolean {
  if (containerGoneUnderCall(text, args)) return true;
  const match = STOPPED_CONTAINER.exec(text.slice(0, SCANNED_CHARS));
  return match !== null && !argumentsHold(args, match[1] ?? '');
}
