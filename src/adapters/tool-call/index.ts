export type { ToolCallActionClass } from './action-classes.js';
export { TOOL_CALL_ACTION_CLASSES } from './action-classes.js';
export type { ExtraPattern, ToolCallAdapter, ToolCallAdapterOptions } from './adapter.js';
export { createToolCallAdapter } from './adapter.js';
export type { ToolCallExtras, ToolOutcomeExtras } from './convert.js';
export { toolCallToOutcome, toolCallToProposal } from './convert.js';
export { ERROR_SHAPE_PLACEHOLDERS, type ErrorShapePart, errorShape, sameErrorShape } from './error-shape.js';
export type { ToolCallSignature } from './signatures.js';
export { SERVER_CRASH_EXCEPTION, TOOL_CALL_SIGNATURES } from './signatures.js';
