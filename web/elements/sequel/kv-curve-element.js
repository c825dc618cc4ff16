// <attention-kv-curve>: the cache of one sequence against the context length, one line per toy
// variant and per chosen model, the GPU memory left after each model's weights, and where each
// line crosses it (kvBill's curve), with the figures in a table behind the plot. With `bill`
// naming an <attention-kv-bill>, it also draws that bill's model (its shape, GPU and batch) and
// follows every change of it; with `controls`, the reader picks the models with checkboxes.

import { ConfigError } from '../element-config.js';
import { renderCurve } from '../../views/sequel/curve-view.js';
import { VARIANTS, VARIANT_LABELS, parseDecimal, parseWhole } from './sequel-config.js';
import { SequelElement } from './sequel-element-base.js';
import { quoteText } from '../../state/quote-text.js';

const DEFAULT_MODELS = ['llama-3-8b', 'gemma-3-27b'];
// The toy layers as kvBill shapes: 4 query heads of 4 numbers; MLA caches a latent alone.
const TOY_SHAPES = { mha: { n_kv_heads: 4 }, gqa: {}, mqa: { n_kv_heads: 1 }, mla: { rope_dim: 0 } };
const DARK_SCHEME = '(prefers-color-scheme: dark)';

const list = (text) => String(text).split(/[\s,]+/u).filter(Boolean);
const quoted = (names) => names.map((name) => quoteText(name)).join(', ');

/** The models a `models` value names ("none": no model), or a ConfigError naming every unknown one. */
export function parseModels(text, names) {
  const chosen = [...new Set(list(text))];
  const unknown = chosen.filter((name) => name !== 'none' && !names.includes(name));
  if (unknown.length > 0) {
    throw new ConfigError('models', `${quoted(unknown)} ${unknown.length === 1 ? 'is not a model' : 'are not models'} this page knows; the models are ${names.join(', ')}, or none`);
  }
  return chosen.filter((name) => name !== 'none');
}

/**
 * The models a `models` value draws, and what it refused. Unknown names never leave the curve
 * blank: `refused` (a ConfigError) names each of them and what is drawn meanwhile, which is the
 * names of the value it knows, or the default models when it knows none of them.
 * @returns {{models: string[], refused: ConfigError | null}}
 */
export function chooseModels(text, names) {
  if (text === null) return { models: DEFAULT_MODELS, refused: null };
  try {
    return { models: parseModels(text, names), refused: null };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const known = [...new Set(list(text))].filter((name) => name === 'none' || names.includes(name));
    const models = known.length > 0 ? known.filter((name) => name !== 'none') : DEFAULT_MODELS;
    const drawn = known.length === 0 ? `the default models, ${DEFAULT_MODELS.join(', ')}`
      : models.length === 0 ? 'no model' : `the models it knows, ${models.join(', ')}`;
    return { models, refused: new ConfigError('models', `${error.detail}. Drawn meanwhile: ${drawn}`) };
  }
}

// Whether a colour (as getComputedStyle writes it) is light: light text means a dark page.
function isLight(colour) {
  const [r, g, b] = (String(colour).match(/[\d.]+/gu) ?? ['0', '0', '0']).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 140;
}

export class AttentionKvCurveElement extends SequelElement {
  static observedAttributes = ['controls', 'models', 'toy-variants', 'toy-d-latent', 'gpu-memory-gib', 'bill'];

  #root = null;
  #scheme = null;
  // A change of the followed bill, or of the reader's colour scheme, draws the curve again.
  #onBillChange = (event) => {
    const id = this.getAttribute('bill');
    if (event.target !== this && id !== null && event.target?.id === id.trim()) this.scheduleRender();
  };
  #onSchemeChange = () => this.scheduleRender();

  get requestSpecs() {
    return { 'gpu-memory-gib': { key: 'gpu_memory_gib' }, 'toy-d-latent': { key: 'd_latent' } };
  }

  connectedCallback() {
    this.#root = this.getRootNode();
    this.#root.addEventListener('attention-change', this.#onBillChange);
    this.#scheme = globalThis.matchMedia?.(DARK_SCHEME) ?? null;
    this.#scheme?.addEventListener('change', this.#onSchemeChange);
    super.connectedCallback();
  }

  disconnectedCallback() {
    this.#root?.removeEventListener('attention-change', this.#onBillChange);
    this.#scheme?.removeEventListener('change', this.#onSchemeChange);
    this.#root = null;
    this.#scheme = null;
  }

  // The followed bill's answer ({model, modelName, edited}), null before it has computed.
  #followedBill(id) {
    if (id === null) return null;
    const target = this.getRootNode().getElementById?.(id.trim());
    if (!target || target.localName !== 'attention-kv-bill') {
      throw new ConfigError('bill', `${quoted([id.trim()])} is not the id of an <attention-kv-bill> in this page`);
    }
    return target.result ?? null;
  }

  compute(attention, read) {
    const names = attention.modelPresets().map((preset) => preset.name);
    const { models, refused } = chooseModels(read('models'), names);
    const toys = read('toy-variants') === null ? VARIANTS : list(read('toy-variants')).filter((name) => name !== 'none');
    for (const name of toys) {
      if (!VARIANTS.includes(name)) throw new ConfigError('toy-variants', `${quoteText(name)} is not one of ${VARIANTS.join(', ')} or none`);
    }
    const bill = this.#followedBill(read('bill'));
    // The curve's own GPU, else the followed bill's, else the core's default.
    const gpuGib = read('gpu-memory-gib') === null ? bill?.model.gpu_memory_gib : parseDecimal('gpu-memory-gib', read('gpu-memory-gib'));
    const gpu = gpuGib === undefined ? {} : { gpu_memory_gib: gpuGib };
    const latent = read('toy-d-latent') === null
      ? attention.vocabulary().defaults.latent_attention.d_latent
      : parseWhole('toy-d-latent', read('toy-d-latent'));
    // The bill's model, unchanged, is drawn once: as the bill's line, with the bill's batch.
    const drawnByBill = bill && !bill.edited ? bill.model.preset : null;
    const presetLines = models.filter((name) => name !== drawnByBill);
    if (toys.length + presetLines.length === 0 && !bill) throw new ConfigError('models', 'and toy-variants name no line to draw');
    const lines = [
      ...toys.map((name) => ({
        key: `toy-${name}`, name: `toy ${VARIANT_LABELS[name]} layer`, models: false,
        curve: attention.kvBill({ ...TOY_SHAPES[name], ...(name === 'mla' ? { d_latent: latent } : {}), ...gpu }).curve,
      })),
      ...(bill ? [{ key: 'bill', name: bill.modelName, models: true, curve: bill.model.curve }] : []),
      ...presetLines.map((name) => {
        const answer = attention.kvBill({ preset: name, ...gpu });
        return { key: name, name: answer.label, models: true, curve: answer.curve };
      }),
    ];
    return { lines, models, refused };
  }

  renderResult(doc, { lines }) {
    this.plot?.destroy();
    const width = Math.min(760, (this.clientWidth || 760) - 24);
    const dark = isLight(doc.defaultView?.getComputedStyle(this).color);
    const { nodes, plot } = renderCurve(doc, this.workings, lines, width, { dark, text: doc.defaultView?.getComputedStyle(this).color });
    this.plot = plot;
    return nodes;
  }

  controlSpecs(attention) {
    return [{
      attribute: 'models', label: 'models drawn', type: 'checks',
      options: attention.modelPresets().map((preset) => [preset.name, preset.label]),
      value: ({ models }) => models,
    }];
  }

  controlChanged(spec, value) {
    // No box checked is a choice too: "none", not the element's default models.
    super.controlChanged(spec, spec.attribute === 'models' && value === '' ? 'none' : value);
  }
}
