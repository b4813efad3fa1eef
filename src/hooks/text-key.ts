/** The hook's name for the key every layer of Node code shares (see src/node/text-key.ts). */
export { textKey } from '../node/text-key.js';
