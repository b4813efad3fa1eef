/**
 * The token-budget runs every framework's tests make: a model that searches the docs for as long as
 * it is offered the tool, then answers, its requests growing as a real conversation's do (each
 * re-sends the whole context, a tenth of the first larger).
 */

export const ANSWER = 'Here is what the docs say about the settings I looked up.';
export const QUESTION = 'Which of our settings are off by default?';

/** Request sizes with budgets ten times as large as a first request or more. */
export const BUDGET_SIZES = [
  { request: 300, budget: 4_000 },
  { request: 3_000, budget: 40_000 },
  { request: 30_000, budget: 400_000 },
] as const;

/** The tokens of turn `turn` (from 0) when the first request has `first`: its request, and its answer. */
export function turnTokens(first: number, turn: number): { readonly input: number; readonly output: number } {
  return { input: Math.round(first * (1 + turn / 10)), output: 60 };
}

/** What the docs search tool answers. */
export const searchDocs = async ({ query }: { query: string }): Promise<string> =>
  `The docs say ${query} defaults to off.`;

export const totalOf = (spent: readonly number[]): number => spent.reduce((sum, tokens) => sum + tokens, 0);
