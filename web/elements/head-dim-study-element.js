// <attention-head-dim-study>: why the scores are divided by √d_k, shown by the core's
// headDimStudy() (the full build). For each head size it scores seeded random queries and keys
// and reports the spread of the raw and the scaled scores, a row's largest weight and entropy,
// and the gradient the softmax passes back. Attributes head-dims, tokens, samples, seed, mask
// and scale make the request (left out: the core's defaults); `controls` lets the reader switch
// the scaled side between √d_k and d_k. After every new study it fires `attention-change` with
// `detail.study`, what headDimStudy() returned.
//
// The default study (256 samples, each 16 rows of 128 seeded normal numbers) is 20 to 25 ms of
// the core's work the first time, at the baseline tier WebAssembly starts in, and about half
// that later: made as soon as the core has loaded, it is drawn in the same frame as the page
// around it rather than in a frame of its own after it.

import { AttentionElementBase, computingNote, problemOf, syncChildren } from './element-base.js';
import { CORE_CHOICES, ConfigError } from './element-config.js';
import { announceChange } from './change-event.js';
import { parseWhole, requestFrom, rewordCoreError } from './request-config.js';
import { SCALE_LABELS, renderStudyTable } from '../views/head-dim-study-view.js';
import { variantRadios } from '../views/variant-radios.js';

const text = (attribute, value) => String(value).trim();

// "1 2 4 8" or "1, 2, 4, 8": whole numbers (the core checks their range and names them).
function parseWholeList(attribute, value) {
  const items = String(value).split(/[\s,]+/u).filter(Boolean);
  if (items.length === 0) throw new ConfigError(attribute, 'is empty; list head sizes such as "4 16 64"');
  return items.map((item) => parseWhole(attribute, item));
}

/** Attribute -> headDimStudy() request member. */
export const STUDY_ATTRIBUTES = Object.freeze({
  'head-dims': { key: 'head_dims', parse: parseWholeList },
  tokens: { key: 'tokens', parse: parseWhole },
  samples: { key: 'samples', parse: parseWhole },
  seed: { key: 'seed', parse: parseWhole },
  mask: { key: 'mask', parse: text },
  scale: { key: 'scale', parse: text },
});

export class AttentionHeadDimStudyElement extends AttentionElementBase {
  static observedAttributes = [...Object.keys(STUDY_ATTRIBUTES), 'controls', 'light-dom'];

  #attention = null;
  #study = null;
  #choice = null;

  constructor() {
    super();
    this.upgradeProperties(['headDims', 'tokens', 'samples', 'seed', 'mask', 'scale', 'controls']);
  }

  /** What headDimStudy() returned for the study shown, or null while none is shown. */
  get study() {
    return this.#study;
  }

  connectedCallback() {
    this.placeFrame();
    this.loadCoreOnce(CORE_CHOICES.full, (attention) => {
      this.#attention = attention;
      if (this.isConnected) this.render();
    });
    this.render();
  }

  attributeChangedCallback(name) {
    if (name === 'light-dom') {
      if (this.isConnected) this.placeFrame();
      return;
    }
    this.scheduleRender();
  }

  render() {
    const doc = this.ownerDocument;
    if (!this.#attention) {
      syncChildren(this.body, [computingNote(doc)]);
      return;
    }
    let request;
    try {
      request = requestFrom(STUDY_ATTRIBUTES, (name) => this.getAttribute(name));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      this.#showProblem(problemOf(error));
      return;
    }
    let study;
    try {
      study = this.#attention.headDimStudy(request);
    } catch (error) {
      const said = rewordCoreError(String(error?.message ?? error), STUDY_ATTRIBUTES, (name) => this.hasAttribute(name));
      this.#showProblem({ text: said });
      return;
    }
    this.showProblem(null);
    this.#study = study;
    const nodes = [renderStudyTable(doc, study)];
    if (this.hasAttribute('controls')) nodes.unshift(this.#scaleChoice(doc, study.scale));
    syncChildren(this.body, nodes);
    announceChange(this, { result: study, study });
  }

  // The reader's choice of what the scaled side divides by: it sets the `scale` attribute.
  #scaleChoice(doc, scale) {
    this.#choice ??= variantRadios(doc, {
      legend: 'The scaled side divides by',
      kind: 'study-scale',
      values: Object.keys(SCALE_LABELS),
      labels: SCALE_LABELS,
      choose: (value) => {
        this.setAttribute('scale', value);
        return null;
      },
    });
    this.#choice.sync(scale);
    return this.#choice.element;
  }

  #showProblem(problem) {
    this.#study = null;
    this.showProblem(problem);
  }
}

// Each attribute is a property too: headDims as a list of numbers, tokens, samples and seed as
// numbers (null when unset or unreadable), mask and scale as text, controls as a boolean.
const readWhole = (value) => (/^\s*\d{1,16}\s*$/u.test(value) ? Number(value) : null);
const reflections = {
  headDims: {
    attribute: 'head-dims',
    read: (value) => { try { return parseWholeList('head-dims', value); } catch { return null; } },
    write: (value) => (Array.isArray(value) ? value.join(' ') : String(value)),
  },
  tokens: { attribute: 'tokens' },
  samples: { attribute: 'samples' },
  seed: { attribute: 'seed' },
  mask: { attribute: 'mask', read: (value) => value },
  scale: { attribute: 'scale', read: (value) => value },
};
for (const [property, { attribute, read = readWhole, write = String }] of Object.entries(reflections)) {
  Object.defineProperty(AttentionHeadDimStudyElement.prototype, property, {
    configurable: true,
    enumerable: true,
    get() {
      const value = this.getAttribute(attribute);
      return value === null ? null : read(value);
    },
    set(value) {
      if (value === null || value === undefined) this.removeAttribute(attribute);
      else this.setAttribute(attribute, write(value));
    },
  });
}
Object.defineProperty(AttentionHeadDimStudyElement.prototype, 'controls', {
  configurable: true,
  enumerable: true,
  get() {
    return this.hasAttribute('controls');
  },
  set(value) {
    this.toggleAttribute('controls', Boolean(value));
  },
});
