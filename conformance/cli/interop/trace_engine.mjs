#!/usr/bin/env node
// conformance/cli/interop/trace_engine.mjs TRACE.json: runs Chrome DevTools' own
// trace model (npm @paulirish/trace_engine, pinned in package.json and
// installed into build/ by `make interop`) over a Chrome trace-event JSON file
// and prints, as one JSON object, what it found: every thread with its name
// and its entries by phase, the flows, whether the trace stayed "generic".
// conformance/cli/interop.sh compares these counts with its own count of the file.
//
// The engine is loaded from $TRACE_ENGINE_DIR (the package directory): ESM
// ignores NODE_PATH, and build/ is not beside this file.
import fs from 'node:fs';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const dir = process.env.TRACE_ENGINE_DIR;
if (!dir || !process.argv[2]) {
  console.error('usage: TRACE_ENGINE_DIR=.../@paulirish/trace_engine node trace_engine.mjs TRACE.json');
  process.exit(2);
}
const Trace = await import(pathToFileURL(path.join(dir, 'models/trace/trace.js')).href);
const {polyfillDOMRect} = await import(pathToFileURL(path.join(dir, 'analyze-trace.mjs')).href);
polyfillDOMRect(); // the engine expects a browser's DOMRect

const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const events = Array.isArray(doc) ? doc : doc.traceEvents;
const model = Trace.TraceModel.Model.createWithAllHandlers();
await model.parse(events);
const data = model.parsedTrace().data;

const threads = [];
let entries = {};
for (const t of Trace.Handlers.Threads.threadsInTrace(data)) {
  const byPhase = {};
  for (const e of t.entries) {
    byPhase[e.ph] = (byPhase[e.ph] ?? 0) + 1;
    entries[e.ph] = (entries[e.ph] ?? 0) + 1;
  }
  threads.push({pid: t.pid, tid: t.tid, name: t.name, entries: byPhase});
}
console.log(JSON.stringify({
  engine: '@paulirish/trace_engine',
  generic: data.Meta.traceIsGeneric,
  threads: threads.length,
  named_threads: threads.filter(t => t.name).length,
  entries,
  flows: data.Flows.flows.length,
  thread_list: threads,
}));
