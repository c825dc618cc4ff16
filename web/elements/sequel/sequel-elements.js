// The sequel's embeddable elements:
//   <attention-variant>          one layer (MHA, GQA, MQA or MLA) on the toy's tokens: what is
//                                shared, what is cached, each head's tables, the output, the bill
//   <attention-flash-tiles>      FlashAttention's tiles with their running max, sum and rescale
//   <attention-quantised-cache>  the KV cache rotated and rounded to a few bits, and its errors
//   <attention-kv-bill>          the KV-cache bill of a model shape next to the toy's
//   <attention-flash-traffic>    FlashAttention's bill in bytes moved, naive against tiled
//   <attention-layer-inputs>     the toy's tokens, seed and token vectors, edited by a reader
//                                and handed to the elements it names (layer-inputs-element.js)
// Each reads its attributes (sequel-config.js), asks the core, and draws the answer with the
// sequel views. Their state is their attributes: a reader's change in the controls sets the
// attribute, so a page can save and restore an element by its attributes alone.

import { ConfigError } from '../element-config.js';
import { renderComparison, renderPresetBills, renderVariantBills } from '../../views/sequel/bill-view.js';
import {
  BILL_PARTS, DEFAULT_BILL_PARTS, DEFAULT_VARIANT_PARTS, REQUEST_ATTRIBUTES, TOY_ATTRIBUTES, VARIANTS,
  VARIANT_LABELS, VARIANT_PARTS, parseChoice, parseParts, parseWhole, requestFrom, variantRequest,
} from './sequel-config.js';
import { SequelElement } from './sequel-element-base.js';
import { AttentionKvCurveElement } from './kv-curve-element.js';
import { AttentionLayerInputsElement } from './layer-inputs-element.js';
import { renderFlashTiles } from '../../views/sequel/flash-view.js';
import { renderQuantisedCache } from '../../views/sequel/quantised-view.js';
import { renderFlashTraffic } from '../../views/sequel/traffic-view.js';
import { renderVariant } from '../../views/sequel/variant-view.js';

const headOptions = (count) => Array.from({ length: count }, (_, h) => [String(h), `head ${h}`]);
// The masks a reader may pick, as the core names and labels them: those its kernels compute.
const maskOptions = (attention) => attention.vocabulary().masks.filter((mask) => mask.kernels).map((mask) => [mask.name, mask.label]);

// `controls` lists the controls to show ("block-rows,block-cols"); present but empty: all.
function chosenControls(element, specs) {
  const text = element.getAttribute('controls');
  if (!text || !text.trim()) return specs;
  const names = text.split(/[\s,]+/u).filter(Boolean);
  return specs.filter((spec) => names.includes(spec.attribute));
}

export class AttentionVariantElement extends SequelElement {
  static observedAttributes = ['variant', 'show', 'controls', ...Object.keys(REQUEST_ATTRIBUTES.variant)];

  get requestSpecs() {
    return REQUEST_ATTRIBUTES.variant;
  }

  compute(attention, read) {
    const variant = read('variant') === null ? 'gqa' : parseChoice('variant', read('variant'), VARIANTS);
    const parts = read('show') === null ? DEFAULT_VARIANT_PARTS : parseParts('show', read('show'), VARIANT_PARTS);
    const { method, request } = variantRequest(variant, requestFrom(REQUEST_ATTRIBUTES.variant, read));
    return { layer: attention[method](request), parts: VARIANT_PARTS.filter((part) => parts.includes(part)) };
  }

  renderResult(doc, { layer, parts }) {
    return renderVariant(doc, this.workings, layer, parts);
  }

  controlSpecs() {
    return chosenControls(this, [
      {
        attribute: 'variant', label: 'variant', type: 'select',
        options: VARIANTS.map((name) => [name, VARIANT_LABELS[name]]), value: ({ layer }) => layer.variant.toLowerCase(),
      },
      {
        attribute: 'n-kv-heads', label: 'K/V heads', type: 'number', min: 1, max: ({ layer }) => layer.n_heads,
        value: ({ layer }) => (layer.n_kv_heads === undefined ? '' : String(layer.n_kv_heads)),
        disabled: ({ layer }) => layer.n_kv_heads === undefined || (this.getAttribute('variant') ?? 'gqa') !== 'gqa',
      },
      {
        attribute: 'd-latent', label: 'latent size d_latent', type: 'number', min: 1, max: () => 256,
        value: ({ layer }) => (layer.d_latent === undefined ? '' : String(layer.d_latent)),
        disabled: ({ layer }) => layer.variant !== 'MLA',
      },
    ]);
  }

  controlChanged(spec, value) {
    if (spec.attribute === 'variant') {
      // n-kv-heads belongs to GQA and d-latent to MLA: a change of variant drops the other's.
      if (value !== 'gqa') this.removeAttribute('n-kv-heads');
      if (value !== 'mla') this.removeAttribute('d-latent');
    }
    super.controlChanged(spec, value);
  }
}

export class AttentionFlashTilesElement extends SequelElement {
  static observedAttributes = ['controls', 'practice', ...Object.keys(REQUEST_ATTRIBUTES.flash)];

  get requestSpecs() {
    return REQUEST_ATTRIBUTES.flash;
  }

  compute(attention, read) {
    return attention.flashTiles(requestFrom(REQUEST_ATTRIBUTES.flash, read));
  }

  // With `practice`, the running figures it names are blanks of pencil mode, laid on the
  // tables before they are shown.
  renderResult(doc, tiles) {
    const nodes = renderFlashTiles(doc, this.workings, tiles);
    return this.layPractice(doc, nodes, tiles, 'flash');
  }

  controlSpecs(attention) {
    return chosenControls(this, [
      {
        attribute: 'block-rows', label: 'queries per tile', type: 'number', min: 1,
        max: (tiles) => tiles.token_count, value: (tiles) => String(tiles.block_rows),
      },
      {
        attribute: 'block-cols', label: 'keys per tile', type: 'number', min: 1,
        max: (tiles) => tiles.token_count, value: (tiles) => String(tiles.block_cols),
      },
      {
        attribute: 'mask', label: 'mask', type: 'select', options: maskOptions(attention),
        value: (tiles) => tiles.mask,
      },
      {
        attribute: 'head', label: 'head', type: 'select',
        options: (tiles) => (tiles.source?.kind === 'seeded_head' ? headOptions(tiles.source.n_heads) : [['0', 'head 0']]),
        value: (tiles) => String(tiles.source?.head ?? 0),
        disabled: (tiles) => tiles.source?.kind !== 'seeded_head',
      },
    ]);
  }
}

export class AttentionFlashTrafficElement extends SequelElement {
  static observedAttributes = ['controls', ...Object.keys(REQUEST_ATTRIBUTES.traffic)];

  get requestSpecs() {
    return REQUEST_ATTRIBUTES.traffic;
  }

  compute(attention, read) {
    return attention.flashTraffic(requestFrom(REQUEST_ATTRIBUTES.traffic, read));
  }

  renderResult(doc, traffic) {
    return renderFlashTraffic(doc, this.workings, traffic);
  }

  controlSpecs(attention) {
    const number = (attribute, label, key, options = {}) => ({
      attribute, label, type: 'number', min: 1, value: (t) => (t[key] === null ? '' : String(t[key])), ...options,
    });
    return chosenControls(this, [
      number('token-count', 'tokens T', 'token_count', { inputClass: 'wide' }),
      number('head-dim', 'head_dim', 'head_dim'),
      {
        attribute: 'dtype-bytes', label: 'bytes per value', type: 'select',
        options: [['4', '4 (float32)'], ['2', '2 (float16)'], ['1', '1 (8-bit)']], value: (t) => String(t.dtype_bytes),
      },
      {
        attribute: 'mask', label: 'mask', type: 'select', options: maskOptions(attention), value: (t) => t.mask,
      },
      {
        ...number('sram-kib', 'on-chip memory, KiB (empty: none)', 'sram_bytes', { step: 'any' }),
        value: (t) => (t.sram_bytes === null ? '' : String(t.sram_bytes / 1024)),
      },
      number('block-rows', 'queries per tile (empty: largest)', 'block_rows'),
      number('block-cols', 'keys per tile (empty: largest)', 'block_cols'),
    ]);
  }

  controlChanged(spec, value) {
    // New memory or a new shape: the largest tiles that fit are chosen again.
    if (['sram-kib', 'token-count', 'head-dim', 'dtype-bytes'].includes(spec.attribute) && this.hasAttribute('sram-kib')) {
      this.removeAttribute('block-rows');
      this.removeAttribute('block-cols');
    }
    super.controlChanged(spec, value);
  }
}

export class AttentionQuantisedCacheElement extends SequelElement {
  static observedAttributes = ['controls', 'level', ...Object.keys(REQUEST_ATTRIBUTES.quantised)];

  get requestSpecs() {
    return REQUEST_ATTRIBUTES.quantised;
  }

  compute(attention, read) {
    const request = requestFrom(REQUEST_ATTRIBUTES.quantised, read);
    const cache = attention.quantisedCache(request);
    const other = attention.quantisedCache({ ...request, rotation: cache.rotation === 'random' ? 'none' : 'random' });
    let level = cache.levels[0].bits;
    if (read('level') !== null) {
      level = parseWhole('level', read('level'));
      if (!cache.levels.some((entry) => entry.bits === level)) {
        throw new ConfigError('level', `${level} bits is not among the bit widths computed (${cache.levels.map((entry) => entry.bits).join(', ')})`);
      }
    }
    return { cache, other, level };
  }

  renderResult(doc, { cache, other, level }) {
    return renderQuantisedCache(doc, this.workings, cache, other, level);
  }

  controlSpecs() {
    return chosenControls(this, [
      {
        attribute: 'bits', label: 'bit widths', type: 'checks', options: [['8', '8'], ['4', '4'], ['3', '3'], ['2', '2']],
        value: ({ cache }) => cache.levels.map((entry) => String(entry.bits)),
      },
      {
        attribute: 'rotation', label: 'rotation', type: 'select', options: [['random', 'on (random)'], ['none', 'off']],
        value: ({ cache }) => cache.rotation,
      },
      {
        attribute: 'level', label: 'tables at', type: 'select',
        options: ({ cache }) => cache.levels.map((entry) => [String(entry.bits), `${entry.bits} bits`]),
        value: ({ level }) => String(level),
      },
      {
        attribute: 'head', label: 'head', type: 'select',
        options: ({ cache }) => (cache.source?.kind === 'seeded_head' ? headOptions(cache.source.n_heads) : [['0', 'head 0']]),
        value: ({ cache }) => String(cache.source?.head ?? 0),
        disabled: ({ cache }) => cache.source?.kind !== 'seeded_head',
      },
    ]);
  }

  controlChanged(spec, value) {
    // A bit width no longer computed cannot stay the one whose tables are shown.
    if (spec.attribute === 'bits' && this.hasAttribute('level') && !value.split(',').includes(this.getAttribute('level'))) {
      this.removeAttribute('level');
    }
    super.controlChanged(spec, value);
  }
}

// The model shape's attributes, the ones a change of preset clears.
const SHAPE_ATTRIBUTES = Object.keys(REQUEST_ATTRIBUTES.bill).filter((name) => name !== 'preset');
// The figures that make a published model what it is; changing one makes it the reader's shape.
const MODEL_FIGURES = ['layers', 'n_heads', 'n_kv_heads', 'head_dim', 'd_latent', 'rope_dim', 'parameters', 'sliding_window', 'local_layers'];
const KIND_ATTRIBUTES = { kv: ['n-kv-heads', 'head-dim'], latent: ['d-latent', 'rope-dim'] };
// Starting values when a reader switches a shape to the other kind of cache.
const KIND_START = { kv: { 'head-dim': '128' }, latent: { 'd-latent': '512', 'rope-dim': '64' } };

export class AttentionKvBillElement extends SequelElement {
  static observedAttributes = ['controls', 'show', 'practice', ...Object.keys(TOY_ATTRIBUTES), ...Object.keys(REQUEST_ATTRIBUTES.bill)];

  get requestSpecs() {
    return { ...REQUEST_ATTRIBUTES.bill, ...TOY_ATTRIBUTES };
  }

  compute(attention, read) {
    const parts = read('show') === null ? DEFAULT_BILL_PARTS : parseParts('show', read('show'), BILL_PARTS);
    const model = attention.kvBill(requestFrom(REQUEST_ATTRIBUTES.bill, read));
    const presets = attention.modelPresets();
    const { toy: toyKind = model.attention.toLowerCase(), ...toyLayer } = requestFrom(TOY_ATTRIBUTES, read);
    const toyBill = (variant) => {
      const { d_latent: latent, ...layer } = toyLayer;
      const { method, request } = variantRequest(variant, variant === 'mla' && latent !== undefined ? { ...layer, d_latent: latent } : layer);
      return attention[method](request).bill;
    };
    // A preset whose figures the reader changed is no longer that model: it is named as theirs.
    // The context, batch, GPU and number formats are how it is served, not which model it is.
    const preset = presets.find((entry) => entry.name === model.preset);
    const figure = (shape, key) => (key === 'local_layers' && shape.sliding_window === null ? null : shape[key] ?? null);
    const edited = Boolean(preset) && MODEL_FIGURES.some((key) => figure(preset, key) !== figure(model, key));
    const modelName = model.preset === null ? 'your shape' : edited ? `your shape, from ${model.label}` : model.label;
    const result = {
      model, presets, edited, modelName, parts: BILL_PARTS.filter((part) => parts.includes(part)), toy: toyBill(toyKind),
    };
    if (parts.includes('variants')) result.variants = Object.fromEntries(VARIANTS.map((variant) => [variant, toyBill(variant)]));
    if (parts.includes('presets')) {
      result.presetBills = presets.map((preset) => ({ preset, bill: attention.kvBill({ preset: preset.name }) }));
    }
    return result;
  }

  renderResult(doc, result) {
    const nodes = [];
    for (const part of result.parts) {
      if (part === 'variants') nodes.push(renderVariantBills(doc, this.workings, result.variants));
      if (part === 'compare') nodes.push(renderComparison(doc, this.workings, result.toy, result.model, result.presets, result.modelName));
      if (part === 'presets') nodes.push(renderPresetBills(doc, this.workings, result.presetBills));
    }
    // With `practice`, the model's lines it names are blanks of pencil mode (in the comparison).
    return this.layPractice(doc, nodes, result.model, 'bill');
  }

  controlSpecs() {
    const shapeNumber = (attribute, label, key, options = {}) => ({
      attribute, label, type: 'number', min: 1, value: ({ model }) => (model[key] === null ? '' : String(model[key])), ...options,
    });
    const isLatent = ({ model }) => model.attention === 'MLA';
    return chosenControls(this, [
      {
        attribute: 'preset', label: 'model', type: 'select', className: 'preset-control',
        options: ({ presets, model, edited }) => [['', 'your own shape'], ...presets.map((preset) => [
          preset.name, edited && preset.name === model.preset ? `your shape, from ${preset.label}` : `${preset.label} (${preset.attention})`])],
        value: ({ model }) => model.preset ?? '',
      },
      {
        attribute: 'cache-kind', label: 'the cache holds', type: 'select',
        options: [['kv', 'K/V heads (MHA, GQA, MQA)'], ['latent', 'a latent (MLA)']],
        value: (result) => (isLatent(result) ? 'latent' : 'kv'),
      },
      shapeNumber('layers', 'layers', 'layers'),
      shapeNumber('n-heads', 'query heads', 'n_heads'),
      shapeNumber('n-kv-heads', 'K/V heads', 'n_kv_heads', { disabled: isLatent }),
      shapeNumber('head-dim', 'head_dim', 'head_dim', { disabled: isLatent }),
      shapeNumber('d-latent', 'd_latent', 'd_latent', { disabled: (result) => !isLatent(result) }),
      shapeNumber('rope-dim', 'RoPE key', 'rope_dim', { min: 0, disabled: (result) => !isLatent(result) }),
      {
        attribute: 'dtype-bytes', label: 'cache bytes per value', type: 'select',
        options: [['4', '4 (float32)'], ['2', '2 (16-bit)'], ['1', '1 (8-bit)']], value: ({ model }) => String(model.dtype_bytes),
      },
      {
        attribute: 'kv-bits', label: 'quantised cache', type: 'select',
        options: [['', 'no'], ['8', '8 bits'], ['4', '4 bits'], ['3', '3 bits'], ['2', '2 bits']],
        value: ({ model }) => (model.kv_bits === null ? '' : String(model.kv_bits)),
      },
      {
        attribute: 'weight-dtype-bytes', label: 'weight bytes per parameter', type: 'select',
        options: [['4', '4'], ['2', '2'], ['1', '1'], ['0.5', '0.5']], value: ({ model }) => String(model.weight_dtype_bytes),
      },
      shapeNumber('parameters', 'parameters', 'parameters', { inputClass: 'wide' }),
      shapeNumber('context-length', 'context, tokens', 'context_length', { inputClass: 'wide' }),
      shapeNumber('batch', 'batch', 'batch'),
      shapeNumber('gpu-memory-gib', 'GPU memory, GiB', 'gpu_memory_gib', { step: 'any' }),
      shapeNumber('sliding-window', 'sliding window, tokens (empty: none)', 'sliding_window', { inputClass: 'wide' }),
      shapeNumber('local-layers', 'layers with the window', 'local_layers', {
        min: 0, value: ({ model }) => (model.sliding_window === null ? '' : String(model.local_layers)),
        disabled: ({ model }) => model.sliding_window === null,
      }),
    ]);
  }

  controlChanged(spec, value) {
    const model = this.result?.model;
    if (spec.attribute === 'sliding-window' && value === '') {
      // An emptied window means none; a preset's own window would otherwise come back.
      this.removeAttribute('local-layers');
      if (this.hasAttribute('preset')) this.setAttribute('sliding-window', 'none');
      else this.removeAttribute('sliding-window');
      return;
    }
    if (spec.attribute === 'preset') {
      for (const name of SHAPE_ATTRIBUTES) this.removeAttribute(name);
      super.controlChanged(spec, value);
      return;
    }
    if (spec.attribute === 'cache-kind') {
      if (!model || (value === 'latent') === (model.attention === 'MLA')) return;
      // A preset fixes its kind of cache: switching keeps its figures as the reader's own shape.
      if (this.hasAttribute('preset')) {
        const pinned = {
          layers: model.layers, 'n-heads': model.n_heads, parameters: model.parameters,
          'weight-dtype-bytes': model.weight_dtype_bytes, 'dtype-bytes': model.dtype_bytes,
          'context-length': model.context_length, batch: model.batch, 'gpu-memory-gib': model.gpu_memory_gib,
        };
        for (const [name, figure] of Object.entries(pinned)) this.setAttribute(name, String(figure));
        this.removeAttribute('preset');
      }
      const other = value === 'latent' ? 'kv' : 'latent';
      for (const name of KIND_ATTRIBUTES[other]) this.removeAttribute(name);
      const start = { ...KIND_START[value], ...(value === 'kv' ? { 'n-kv-heads': String(model.n_heads) } : {}) };
      for (const [name, text] of Object.entries(start)) if (!this.hasAttribute(name)) this.setAttribute(name, text);
      return;
    }
    super.controlChanged(spec, value);
  }
}

/** Every sequel element, by tag name. */
export const SEQUEL_ELEMENTS = Object.freeze({
  'attention-variant': AttentionVariantElement,
  'attention-flash-tiles': AttentionFlashTilesElement,
  'attention-quantised-cache': AttentionQuantisedCacheElement,
  'attention-kv-bill': AttentionKvBillElement,
  'attention-flash-traffic': AttentionFlashTrafficElement,
  'attention-kv-curve': AttentionKvCurveElement,
  'attention-layer-inputs': AttentionLayerInputsElement,
});

export { AttentionKvCurveElement, AttentionLayerInputsElement };

