/**
 * Runs every benchmark and writes docs/results.md, docs/long-horizon.svg and the results section of
 * README.md. Usage: npx tsx scripts/results.ts [--quick] [--only long-horizon,sessions,ml-search,perf,proxy,fleet,hooks]
 */
import { main } from '../bench/results.js';

process.exitCode = await main(process.argv.slice(2));
