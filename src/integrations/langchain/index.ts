/**
 * narrowing for LangChain (`langchain` v1 `createAgent`): one middleware that checks each tool call,
 * learns from what ran, and ends the run when narrowing halts.
 */
export {
  type LangChainGuard,
  type LangChainGuardOptions,
  NARROWING_MIDDLEWARE,
  narrowingForLangChain,
  type RunStage,
} from './guard.js';
