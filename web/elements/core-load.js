// The core's API for every element (part one's, the sequel's, the trainer and the worksheet):
// loaded once per page and build and shared, and asked for again after a failed load, so that
// one element's retry is every element's. The small `embed` build by default; the full build
// (CORE_CHOICES.full) for an element that needs more of the API, or whose page already runs it
// (one core per page: createAttention() keeps one module per build, so the page's calls and the
// elements' share it).

import { createAttention } from '../api/attention-api.js';
import { CORE_CHOICES } from './element-config.js';

const loads = new Map();  // build -> promise of its API

/**
 * @param {'embed' | 'simd' | 'scalar'} [build]
 * @returns {Promise<object>} the API createAttention() gives
 */
export function loadAttention(build = 'embed') {
  if (!loads.has(build)) {
    loads.set(build, createAttention({ build }).catch((error) => {
      loads.delete(build);
      throw error;
    }));
  }
  return loads.get(build);
}

/** The full build: the sequel's elements, the trainer and the worksheet need more than `embed`. */
export const loadFullAttention = () => loadAttention(CORE_CHOICES.full);
