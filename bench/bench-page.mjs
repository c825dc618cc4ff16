// The benchmark inside a browser page. Served from the repository root by run-chromium.mjs, so
// our build (build/site) and the peers' files (node_modules) load from this machine, never from
// a CDN. Exposes window.runBenchmark(options) -> the result document.

import { createAttention } from '../build/site/attention-explainer.js';
import * as ort from '../node_modules/onnxruntime-web/dist/ort.wasm.min.mjs';
import { isSelected } from './options.mjs';
import { ourContenders } from './ours.mjs';
import { measurePeak } from './peak.mjs';
import { onnxruntimeContenders } from './peers/onnxruntime.mjs';
import { plainJsContender, PLAIN_JS_ID } from './peers/plain-js.mjs';
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
  const notes = [];
  const ours = await ourContenders(createAttention, {
    kernels: (name) => isSelected(only, `ours:${name}`) || isSelected(only, 'ours-default'),
    scalarBuild: isSelected(only, 'ours-scalar-build'),
  });
  notes.push(...ours.notes);
  const peers = [];
  for (const [prefix, load] of [['ort', loadOnnxruntime], ['tfjs', loadTfjs]]) {
    if (only && !only.some((o) => o.startsWith(prefix) || prefix.startsWith(o))) continue;
    try {
      peers.push(...(await load()).filter((c) => isSelected(only, c.id)));
    } catch (error) {
      notes.push(`${prefix} was not measured: ${error.message}`);
      log(`${prefix} was not measured: ${error.message}`);
    }
  }
  if (isSelected(only, PLAIN_JS_ID)) peers.push(plainJsContender());
  const contenders = [...ours.contenders.filter((c) => isSelected(only, c.id) || c.id === 'ours-default'), ...peers];
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
