// The one JS copy of the core's names (web/state/variant-names.js) against the core's own
// vocabulary(): a name or default retyped there that drifts from the core fails here, before a
// page parses a hash the core would refuse.
//
// Run after the wasm build: node --test tests/web/variant-names.test.mjs
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSiteAttention } from '../support/site-module.mjs';
import {
  DEFAULT_VARIANT, LAYER_DEFAULTS, MASK_NAMES, SCALE_NAMES,
} from '../../web/state/variant-names.js';
import { MASKS, SCALES } from '../../web/state/page-state.js';

let vocabulary;
before(async () => {
  vocabulary = (await createSiteAttention()).vocabulary();
});

describe('variant-names.js says what the core says', () => {
  it('the mask names, in the core\u2019s order', () => {
    assert.deepEqual([...MASK_NAMES], vocabulary.masks.map((mask) => mask.name));
  });

  it('the scale names, in the core\u2019s order', () => {
    assert.deepEqual([...SCALE_NAMES], vocabulary.scales.map((scale) => scale.name));
  });

  it('run()\u2019s default mask and scale', () => {
    assert.deepEqual({ ...DEFAULT_VARIANT }, { mask: vocabulary.defaults.run.mask, scale: vocabulary.defaults.run.scale });
    assert.deepEqual({ ...DEFAULT_VARIANT }, { mask: vocabulary.defaults.tracer.mask, scale: vocabulary.defaults.tracer.scale });
  });

  it('a layer\u2019s default shape, for the multi-head layer and the sequel\u2019s layers', () => {
    for (const request of ['multi_head', 'layer']) {
      for (const key of Object.keys(LAYER_DEFAULTS)) {
        assert.equal(LAYER_DEFAULTS[key], vocabulary.defaults[request][key], `${request}.${key}`);
      }
    }
  });

  it('the page state takes exactly these names (no second list)', () => {
    assert.equal(MASKS, MASK_NAMES);
    assert.equal(SCALES, SCALE_NAMES);
  });

  it('every variant has a reader\u2019s label, distinct from the others', () => {
    for (const list of [vocabulary.masks, vocabulary.scales]) {
      const labels = list.map((term) => term.label);
      assert.ok(labels.every((label) => typeof label === 'string' && label.length > 0), labels.join(' | '));
      assert.equal(new Set(labels).size, labels.length, labels.join(' | '));
    }
  });
});
