export { PolicyError } from './errors.js';
export { type LoadOptions, loadPolicyFile, parsePolicy, policyJsonSchema } from './load.js';
export { type PolicyFileInput, policyInputSchema } from './schema.js';
