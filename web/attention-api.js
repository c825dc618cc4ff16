// attention-api.js: loads the attention core (C++ compiled to WebAssembly) and exposes it as
// plain functions. The core parses, validates and computes everything; this file only moves
// JSON across the boundary and turns the core's error values into exceptions.
import createAttentionCore from './attention-core.js';

const isNode = typeof process === 'object' && typeof process.versions?.node === 'string' &&
  typeof window === 'undefined';

let corePromise = null;

async function loadCore() {
  if (typeof WebAssembly !== 'object') {
    throw new Error('WebAssembly is not available here, so the attention core cannot run.');
  }
  if (isNode) {
    // The module is built for browsers (it finds its .wasm through import.meta.url and fetch);
    // Node is handed the bytes instead.
    const { readFile } = await import('node:fs/promises');
    const wasmBinary = await readFile(new URL('./attention-core.wasm', import.meta.url));
    return createAttentionCore({ wasmBinary });
  }
  return createAttentionCore();
}

// JSON has no NaN or Infinity; pass them as strings so the core can name the cell that holds
// one ("q[0][1]: must be a finite number, got \"NaN\"") instead of seeing a silent null.
function nonFiniteAsString(key, value) {
  return typeof value === 'number' && !Number.isFinite(value) ? String(value) : value;
}

function toJson(value, what) {
  let text;
  try {
    text = JSON.stringify(value === undefined ? null : value, nonFiniteAsString);
  } catch (error) {
    throw new Error(`${what}: cannot be read as JSON (${error.message})`);
  }
  return text === undefined ? 'null' : text;
}

function unwrap(result) {
  if (!result.ok) throw new Error(result.error);
  return JSON.parse(result.json);
}

// JSON writes -Infinity as null; the masked scores are the only place the core produces it.
function restoreMinusInfinity(trace) {
  trace.masked = trace.masked.map((row) => row.map((x) => (x === null ? -Infinity : x)));
  return trace;
}

/**
 * Loads the WebAssembly core (once per page) and resolves to the attention API.
 * Rejects with an Error when WebAssembly cannot run.
 */
export async function createAttention() {
  corePromise ??= loadCore().catch((error) => {
    corePromise = null;  // a later call may try again
    throw error instanceof Error ? error : new Error(`The attention core failed to load: ${error}`);
  });
  const core = await corePromise;
  return {
    /** The full trace of one attention head; throws an Error naming the field at fault. */
    run(input) {
      return restoreMinusInfinity(unwrap(core.traceJson(toJson(input, 'input'))));
    },
    /** The article's inputs: two_words, four_words, four_words_worked_rows, vocabulary. */
    article() {
      return JSON.parse(core.articleJson());
    },
    /** Step 6, a demonstration: one output row scored against the article's vocabulary. */
    scoreNextWord(row) {
      const scores = unwrap(core.nextWordJson(toJson(row, 'row')));
      return { words: JSON.parse(core.articleJson()).vocabulary.words, ...scores };
    },
    /** Every number the article prints, compared with what the core computes. */
    checkArticle() {
      return JSON.parse(core.claimChecksJson());
    },
    /** The attention kernels compiled into this build. */
    kernels() {
      return JSON.parse(core.kernelsJson());
    },
  };
}
