/**
 * narrowing for the AI SDK (`ai`): `toolApproval`, `onToolExecutionEnd` and `stopWhen` for the
 * versions with the approval hook (7.x), and `wrapTools` for those without it (6.x).
 */
export { type AiSdkApprovalConfiguration, allApprove } from './approval.js';
export {
  type AiSdkApprovalRequest,
  type AiSdkApprovalStatus,
  type AiSdkExecutableTool,
  type AiSdkGuard,
  type AiSdkGuardOptions,
  type AiSdkStepSettings,
  type AiSdkToolApproval,
  type AiSdkToolCall,
  type AiSdkToolExecutionEnd,
  narrowingForAiSdk,
} from './guard.js';
