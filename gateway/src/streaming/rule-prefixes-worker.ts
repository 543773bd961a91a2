// The blocklist rules' prefix automaton, built on a worker thread: for a large rule set building it
// takes up to about a second, which the gateway's event loop must not spend.
import { parentPort, workerData } from 'node:worker_threads';
import { buildPrefixTables, type PrefixRule } from './rule-prefixes.js';

const compiled = buildPrefixTables(workerData as PrefixRule[]);
parentPort!.postMessage(
  compiled,
  compiled.tables.flatMap((t) => [t.final, t.ascii, t.rangeStart, t.min, t.max, t.to].map((array) => array.buffer as ArrayBuffer)),
);
