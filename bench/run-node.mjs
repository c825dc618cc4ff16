#!/usr/bin/env node
// The benchmark in Node: our kernels through the built JS API (build/site), onnxruntime-web and
// tfjs-backend-wasm from node_modules (their .wasm files read from disk, never fetched), plain
// JS, and the SIMD128 peak, all in this one process. Writes build/bench/results-node.json, copies
// it next to the site's benchmark page, and prints Markdown tables.
//
//   node bench/run-node.mjs [--quick] [--sizes 4,64] [--d 64] [--reps N] [--only ours,plain-js]

import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { runFromCommandLine } from './command-line.mjs';
import { selectContenders } from './contenders.mjs';
import { measurePeak } from './peak.mjs';
import { runBenchmark } from './suite.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);

async function packageVersion(name) {
  // Not every package exports its package.json; find it next to the resolved entry instead.
  let dir = path.dirname(require.resolve(name));
  while (dir !== path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const info = await stat(file).catch(() => null);
    if (info) {
      const json = JSON.parse(await readFile(file, 'utf8'));
      if (json.name === name) return json.version;
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}

async function loadOnnxruntime() {
  const ort = await import('onnxruntime-web');
  // The .wasm (and its loader) from node_modules, never from a CDN.
  ort.env.wasm.wasmPaths = `${path.dirname(require.resolve('onnxruntime-web/ort-wasm-simd-threaded.wasm'))}/`;
  const { onnxruntimeContenders } = await import('./peers/onnxruntime.mjs');
  return onnxruntimeContenders(ort);
}

async function loadTfjs() {
  const tf = await import('@tensorflow/tfjs-core');
  const wasmBackend = await import('@tensorflow/tfjs-backend-wasm');
  wasmBackend.setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`);
  wasmBackend.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend failed to start');
  const { tfjsContenders } = await import('./peers/tfjs.mjs');
  const version = await packageVersion('@tensorflow/tfjs-backend-wasm');
  return tfjsContenders({ ...tf, wasm: wasmBackend }, version);
}

/**
 * Runs the benchmark in this process and returns the result document.
 * @param {object} options  parseBenchArguments() output, plus optional `log`
 */
export async function runNodeBenchmark(options = {}) {
  const { only, log = (line) => console.error(line) } = options;
  const siteModule = pathToFileURL(path.join(ROOT, 'build/site/web/attention-explainer.js')).href;
  const { createAttention } = await import(siteModule);
  const { ours, peers, contenders, notes } = await selectContenders(
    createAttention, [['ort', loadOnnxruntime], ['tfjs', loadTfjs]], { only, log });
  const cpus = os.cpus();
  const loadBefore = os.loadavg();
  const doc = await runBenchmark({
    ...options,
    contenders,
    peerIds: peers.map((p) => p.id),
    attention: ours.attention,
    defaultKernel: ours.attention?.defaultKernel ? (t, d) => ours.attention.defaultKernel(t, d) : undefined,
    measurePeak,
    notes,
    log,
    environment: {
      name: 'node',
      runtime: `Node ${process.version} (V8 ${process.versions.v8})`,
      cpu: cpus[0]?.model?.trim(),
      logical_cpus: cpus.length,
      platform: `${process.platform}-${process.arch}`,
    },
  });
  recordLoad(doc, loadBefore, os.loadavg());
  return doc;
}

/**
 * Records the machine's load average around a run, with a warning when other work was running:
 * the benchmark itself keeps one CPU busy, so a one-minute load average at or above the number of
 * CPUs means something else competed for them.
 */
export function recordLoad(doc, before, after) {
  doc.environment.load_average = { before, after };
  const cpus = os.cpus().length;
  const highest = Math.max(before[0], after[0]);
  if (highest >= cpus) {
    doc.warnings.push(`the machine's load average reached ${highest.toFixed(1)} on ${cpus} logical CPUs: ` +
      'other work competed with the benchmark, so these figures understate what the machine can do');
  }
}

runFromCommandLine(import.meta.url, 'node', runNodeBenchmark);
