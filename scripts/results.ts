/**
 * Runs every benchmark and writes docs/results.md, docs/long-horizon.svg and the results section of
 * README.md. Usage: npx tsx scripts/results.ts [--quick] [--only long-horizon,sessions,ml-search,perf,proxy,fleet,hooks]
 * [--test-timing FILE]
 * [--corpus DIR [--preset P]] [--blame-corpus DIR] (given alone, only those corpora are scored)
 */
import { main } from '../bench/results.js';

process.exitCode = await main(process.argv.slice(2));
