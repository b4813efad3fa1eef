/**
 * `allApprove()`: several guards on the one `toolApproval` hook (narrowing beside a policy engine
 * such as `@ai-sdk/policy-opa`), asked in order.
 */
import type { AiSdkApprovalRequest, AiSdkApprovalStatus } from './guard.js';

/** A `toolApproval` function, as the SDK types it for any tool set (checked both ways). */
type ApprovalFunction = {
  approve(request: AiSdkApprovalRequest): AiSdkApprovalStatus | PromiseLike<AiSdkApprovalStatus>;
}['approve'];

type PerToolApproval = {
  approve(
    input: unknown,
    options: {
      toolCallId: string;
      messages: readonly unknown[];
      toolContext: unknown;
      runtimeContext: unknown;
    },
  ): AiSdkApprovalStatus | PromiseLike<AiSdkApprovalStatus>;
}['approve'];

/** Either form `toolApproval` takes: one function for every call, or a status or function per tool. */
export type AiSdkApprovalConfiguration =
  | ApprovalFunction
  | { readonly [toolName: string]: AiSdkApprovalStatus | PerToolApproval };

interface ApprovalContext extends AiSdkApprovalRequest {
  readonly toolsContext?: Readonly<Record<string, unknown>>;
  readonly runtimeContext?: unknown;
}

type Normalised =
  | { readonly type: 'not-applicable' }
  | { readonly type: 'approved' | 'denied' | 'user-approval'; readonly reason?: string };

const RANK = { 'not-applicable': 0, approved: 1, 'user-approval': 2, denied: 3 } as const;

/**
 * One `toolApproval` from several, asked in the order given. The first denial is the answer and the
 * ones after it are not asked; otherwise a request for the user's approval outranks an approval,
 * which outranks not-applicable. Put narrowing last, so that it counts only the calls the others
 * let through.
 */
export function allApprove(
  ...approvals: readonly (AiSdkApprovalConfiguration | undefined)[]
): (request: AiSdkApprovalRequest) => Promise<AiSdkApprovalStatus> {
  return async (request) => {
    let answer: Normalised = { type: 'not-applicable' };
    for (const approval of approvals) {
      if (approval === undefined) continue;
      const status = normalise(await ask(approval, request as ApprovalContext));
      if (RANK[status.type] > RANK[answer.type]) answer = status;
      if (answer.type === 'denied') break;
    }
    return answer;
  };
}

function ask(
  approval: AiSdkApprovalConfiguration,
  request: ApprovalContext,
): AiSdkApprovalStatus | PromiseLike<AiSdkApprovalStatus> {
  if (typeof approval === 'function') return approval(request);
  const { toolName, toolCallId, input } = request.toolCall;
  const own = Object.hasOwn(approval, toolName) ? approval[toolName] : undefined;
  if (typeof own !== 'function') return own;
  return own(input, {
    toolCallId,
    messages: request.messages,
    toolContext: request.toolsContext?.[toolName],
    runtimeContext: request.runtimeContext,
  });
}

function normalise(status: AiSdkApprovalStatus): Normalised {
  if (status === undefined) return { type: 'not-applicable' };
  return typeof status === 'string' ? { type: status } : status;
}
