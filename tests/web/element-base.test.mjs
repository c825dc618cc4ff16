// Every element an author embeds, whichever module registers it (part one's, the sequel's, the
// trainer's, the worksheet), is built on the one element base (web/elements/element-base.js):
// its shadow root, frame, message box, render scheduling and the load of the core are one code
// path, so a fix there reaches them all. In Node the classes load without a DOM (the base then
// extends a plain class), which is enough to check what they are made of.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AttentionElementBase } from '../../web/elements/element-base.js';
import * as partOne from '../../web/elements/elements.js';
import { AttentionHeadsElement } from '../../web/elements/heads-element.js';
import { AttentionHeadDimStudyElement } from '../../web/elements/head-dim-study-element.js';
import { SEQUEL_ELEMENTS } from '../../web/elements/sequel/sequel-elements.js';
import { TRAINING_ELEMENTS } from '../../web/elements/training/training-elements.js';
import { PRACTICE_ELEMENTS } from '../../web/elements/practice/practice-elements.js';

// The layer of heads and the head_dim study are defined on sight, from modules of their own.
const partOneElements = Object.entries({ ...partOne, AttentionHeadsElement, AttentionHeadDimStudyElement })
  .filter(([name]) => /^Attention\w+Element$/u.test(name));

describe('one element base', () => {
  it('finds the elements of every family', () => {
    assert.ok(partOneElements.length >= 9, `part one exports ${partOneElements.length} element classes`);
    assert.ok(Object.keys(SEQUEL_ELEMENTS).includes('attention-layer-inputs'));
    assert.ok(Object.keys(TRAINING_ELEMENTS).includes('attention-trainer'));
    assert.ok(Object.keys(PRACTICE_ELEMENTS).includes('attention-worksheet'));
  });

  const families = {
    'part one': partOneElements,
    sequel: Object.entries(SEQUEL_ELEMENTS),
    training: Object.entries(TRAINING_ELEMENTS),
    practice: Object.entries(PRACTICE_ELEMENTS),
  };
  for (const [family, elements] of Object.entries(families)) {
    it(`builds every ${family} element on AttentionElementBase`, () => {
      for (const [name, constructor] of elements) {
        assert.ok(constructor.prototype instanceof AttentionElementBase, `${name} does not extend AttentionElementBase`);
        // The base's own ways of loading the core and scheduling a render are the ones used.
        for (const method of ['loadCoreOnce', 'scheduleRender', 'renderNow', 'showMessage', 'describe']) {
          assert.equal(constructor.prototype[method], AttentionElementBase.prototype[method], `${name} has its own ${method}`);
        }
      }
    });
  }
});
