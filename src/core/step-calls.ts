/**
 * The calls of the model step being recorded: a call made twice in one step (one model response)
 * is learned from once.
 */
import type { CallContext } from './detectors/types.js';

export class StepCalls {
  private currentStep: string | number | undefined;
  private calls = new Set<string>();

  /** Whether the same call was already recorded in this call's step; notes it when not. */
  isDuplicate(call: CallContext): boolean {
    if (call.step === undefined) {
      this.currentStep = undefined;
      // A new set rather than a cleared one: a set cleared call after call leaves a chain of
      // tables behind, which keeps young objects alive through collections.
      if (this.calls.size > 0) this.calls = new Set();
      return false;
    }
    if (call.step !== this.currentStep) {
      this.currentStep = call.step;
      if (this.calls.size > 0) this.calls = new Set();
    }
    if (this.calls.has(call.identity.callKey)) return true;
    this.calls.add(call.identity.callKey);
    return false;
  }

  clear(): void {
    this.calls.clear();
    this.currentStep = undefined;
  }
}
