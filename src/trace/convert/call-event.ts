import type { CallEvent } from '../types.js';

/** A call event with its fields in the format's order, leaving out those without a value. */
export function callEvent(fields: Omit<CallEvent, 'type'>): CallEvent {
  const { tool, args, result, t, id, turn, agent, coalesced } = fields;
  return {
    type: 'call',
    tool,
    args,
    ...(result !== undefined && { result }),
    ...(t !== undefined && { t }),
    ...(id !== undefined && { id }),
    ...(turn !== undefined && { turn }),
    ...(agent !== undefined && { agent }),
    ...(coalesced && { coalesced }),
  };
}
