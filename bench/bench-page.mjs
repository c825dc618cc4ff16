// The benchmark inside a browser page. Served from the repository root by run-chromium.mjs, so
// our build (build/site) and the peers' files (node_modules) load from this machine, never from
// a CDN. Exposes window.runBenchmark(options) -> the result document.

import { createAttention } from '../build/site/web/attention-explainer.js';
import * as ort from '../node_modules/onnxruntime-web/dist/ort.wasm.min.mjs';
import { selectContenders } from './contenders.mjs';
import { measurePeak } from './peak.mjs';
import { onnxruntimeContenders } from './peers/onnxruntime.mjs';
import { tfjsContenders } from './peers/tfjs.mjs';
import { runBenchmark } from './suite.mjs';

const logElement = document.getElementById('log');

function log(line) {
  logElement.textContent += `${line}\n`;
  console.log(line);
}

async function loadTfjs() {
  const { tf } = globalThis;
  if (!tf?.wasm) throw new Error('tfjs-core or tfjs-backend-wasm did not load');
  tf.wasm.setWasmPaths(new URL('../node_modules/@tensorflow/tfjs-backend-wasm/dist/', import.meta.url).href);
  tf.wasm.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) throw new Error('tfjs: the wasm backend failed to start');
  return tfjsContenders(tf, tf.wasm.version_wasm);
}

function loadOnnxruntime() {
  ort.env.wasm.wasmPaths = new URL('../node_modules/onnxruntime-web/dist/', import.meta.url).href;
  return onnxruntimeContenders(ort);
}

window.runBenchmark = async (options = {}) => {
  const { only } = options;
  const { ours, peers, contenders, notes } = await selectContenders(
    createAttention, [['ort', loadOnnxruntime], ['tfjs', loadTfjs]], { only, log });
  const chrome = navigator.userAgent.match(/(?:HeadlessChrome|Chrome|Chromium)\/([\d.]+)/);
  return runBenchmark({
    ...options,
    contenders,
    peerIds: peers.map((p) => p.id),
    attention: ours.attention,
    defaultKernel: ours.attention?.defaultKernel ? (t, d) => ours.attention.defaultKernel(t, d) : undefined,
    measurePeak,
    notes,
    log,
    environment: {
      name: 'chromium',
      runtime: `Chromium ${chrome ? chrome[1] : navigator.userAgent}, headless`,
      logical_cpus: navigator.hardwareConcurrency,
      user_agent: navigator.userAgent,
      cross_origin_isolated: globalThis.crossOriginIsolated === true,
    },
  });
};

window.benchmarkPageReady = true;
log('ready');
