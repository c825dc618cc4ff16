// <attention-kv-curve>: the cache of one sequence against the context length, one line per toy
// variant and per chosen model, the GPU memory left after each model's weights, and where each
// line crosses it (kvBill's curve), with the figures in a table behind the plot.

import { ConfigError } from '../element-config.js';
import { renderCurve } from '../../views/sequel/curve-view.js';
import { VARIANTS, VARIANT_LABELS, parseDecimal, parseWhole } from './sequel-config.js';
import { SequelElement } from './sequel-element-base.js';

const DEFAULT_MODELS = ['llama-3-8b', 'gemma-3-27b'];
// The toy layers as kvBill shapes: 4 query heads of 4 numbers; the MLA latent of the toy's.
const TOY_SHAPES = { mha: { n_kv_heads: 4 }, gqa: {}, mqa: { n_kv_heads: 1 }, mla: { d_latent: 8, rope_dim: 0 } };

const list = (text) => String(text).split(/[\s,]+/u).filter(Boolean);

export class AttentionKvCurveElement extends SequelElement {
  static observedAttributes = ['models', 'toy-variants', 'toy-d-latent', 'gpu-memory-gib'];

  get requestSpecs() {
    return { 'gpu-memory-gib': { key: 'gpu_memory_gib' }, 'toy-d-latent': { key: 'd_latent' } };
  }

  compute(attention, read) {
    const names = attention.modelPresets().map((preset) => preset.name);
    const models = read('models') === null ? DEFAULT_MODELS : list(read('models'));
    for (const name of models) {
      if (!names.includes(name)) throw new ConfigError('models', `${JSON.stringify(name)} is not one of ${names.join(', ')}`);
    }
    const toys = read('toy-variants') === null ? VARIANTS : list(read('toy-variants')).filter((name) => name !== 'none');
    for (const name of toys) {
      if (!VARIANTS.includes(name)) throw new ConfigError('toy-variants', `${JSON.stringify(name)} is not one of ${VARIANTS.join(', ')} or none`);
    }
    const gpu = read('gpu-memory-gib') === null ? {} : { gpu_memory_gib: parseDecimal('gpu-memory-gib', read('gpu-memory-gib')) };
    const latent = read('toy-d-latent') === null ? {} : { d_latent: parseWhole('toy-d-latent', read('toy-d-latent')) };
    if (models.length + toys.length === 0) throw new ConfigError('models', 'and toy-variants name no line to draw');
    const lines = [
      ...toys.map((name) => ({
        key: `toy-${name}`, name: `toy ${VARIANT_LABELS[name]} layer`, models: false,
        curve: attention.kvBill({ ...TOY_SHAPES[name], ...(name === 'mla' ? latent : {}), ...gpu }).curve,
      })),
      ...models.map((name) => {
        const bill = attention.kvBill({ preset: name, ...gpu });
        return { key: name, name: bill.label, models: true, curve: bill.curve };
      }),
    ];
    return { lines };
  }

  renderResult(doc, { lines }) {
    this.plot?.destroy();
    const width = Math.min(760, (this.clientWidth || 760) - 24);
    const { nodes, plot } = renderCurve(doc, this.workings, lines, width);
    this.plot = plot;
    return nodes;
  }
}
