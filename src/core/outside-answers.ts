/**
 * Questions put to something outside this machine (`CallFacts.asksOutside`: a web page, a remote
 * API, a cloud, a package registry): what they answer may change by itself, with nothing the agent
 * did, so an answer, or a failure, holds for a while only.
 */
import type { CallFacts } from './types.js';

/**
 * How long an answer from outside holds: asked again this long after it, the same question is a new
 * one, and a ban of one answered that what it asks for is not there gives it one retry.
 */
export const OUTSIDE_ANSWER_MS = 60_000;

/**
 * When a call puts its question: after the wait it makes first (`sleep 60 && npm view …`), which a
 * clock that stamps the call when it is proposed does not show.
 */
export function askedAt(call: {
  readonly now: number;
  readonly facts: Pick<CallFacts, 'waitSeconds'>;
}): number {
  return call.now + (call.facts.waitSeconds ?? 0) * 1000;
}
