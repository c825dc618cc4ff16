// Type declarations for attention-sequel-elements.js (import "attention-by-hand/sequel-elements").
// Hand-written next to the module; tests/web/web-package.test.mjs checks them against it.
//
// The sequel's elements keep their whole state in their attributes (a reader's change in the
// controls sets the attribute), so they have no property per attribute (<attention-layer-inputs>
// adds `values`, its tokens, seed and x attributes read as the core uses them): read and write the
// attributes, listed with examples on the site's authors page for parts two and three
// (site/authors-sequel.html).

import type { ChangeDetail } from './attention-explainer.js';

export { createAttention } from './attention-explainer.js';

/** The core's answer a sequel element draws: the JSON of the matching AttentionApi request. */
export type SequelResult = Record<string, unknown>;

/** detail of the bubbling, composed `attention-change` event a sequel element fires after every computation. */
export interface SequelChangeDetail extends ChangeDetail<SequelResult> {
  result: SequelResult | null;
  /** Why nothing is shown, naming the attribute at fault; null when the result is shown. */
  problem: string | null;
}

/** What every sequel element shares. */
export interface SequelElement extends HTMLElement {
  /** The answer the tables show: null before the first; after a refused value, the last that worked. */
  readonly result: SequelResult | null;
  /** What was refused, naming the attribute, or null. */
  readonly problem: string | null;
}

/** <attention-variant>: one layer (MHA, GQA, MQA or MLA) on the toy's tokens. */
export interface AttentionVariantElement extends SequelElement {}
/** <attention-flash-tiles>: FlashAttention's tiles with their running max, sum and rescale. */
export interface AttentionFlashTilesElement extends SequelElement {}
/** <attention-quantised-cache>: the KV cache rotated and rounded to a few bits, and its errors. */
export interface AttentionQuantisedCacheElement extends SequelElement {}
/** <attention-kv-bill>: the KV-cache bill of a model shape next to the toy's. */
export interface AttentionKvBillElement extends SequelElement {}
/** <attention-flash-traffic>: FlashAttention's bill in bytes moved, naive against tiled. */
export interface AttentionFlashTrafficElement extends SequelElement {}
/** <attention-kv-curve>: one sequence's cache against the context length, with the memory left after the weights. */
export interface AttentionKvCurveElement extends SequelElement {}

/** The toy layer's shared inputs, as <attention-layer-inputs> uses them. */
export interface LayerInputValues {
  /** The words (the core's default when the `tokens` attribute is not set). */
  tokens: string[];
  /** The seed (the core's default when `seed` is not set). */
  seed: number;
  /** The reader's or author's own token vectors, one row per token; null: the seeded ones. */
  x: number[][] | null;
}

/**
 * <attention-layer-inputs>: the tokens, seed and token vectors X a reader edits, checked by the
 * core and handed to the elements its `for` attribute names. `result` is the core's
 * groupedAttention answer for the input in use; `problem` what was refused last (a field, a
 * cell or an attribute), or null. It fires `attention-change` after every check.
 */
export interface AttentionLayerInputsElement extends SequelElement {
  /**
   * The input in use (null before the core has answered). Setting it writes the `tokens`, `seed`
   * and `x` attributes; a member left out or null removes its attribute.
   */
  get values(): LayerInputValues | null;
  set values(values: Partial<LayerInputValues> | null);
}

export declare const AttentionVariantElement: { new (): AttentionVariantElement; readonly observedAttributes: string[] };
export declare const AttentionFlashTilesElement: { new (): AttentionFlashTilesElement; readonly observedAttributes: string[] };
export declare const AttentionQuantisedCacheElement: { new (): AttentionQuantisedCacheElement; readonly observedAttributes: string[] };
export declare const AttentionKvBillElement: { new (): AttentionKvBillElement; readonly observedAttributes: string[] };
export declare const AttentionKvCurveElement: { new (): AttentionKvCurveElement; readonly observedAttributes: string[] };
export declare const AttentionFlashTrafficElement: { new (): AttentionFlashTrafficElement; readonly observedAttributes: string[] };
export declare const AttentionLayerInputsElement: { new (): AttentionLayerInputsElement; readonly observedAttributes: string[] };

/** Defines every sequel element in `registry` (the page's customElements by default); importing the module already did, in a browser. */
export function defineSequelElements(registry?: CustomElementRegistry): void;

declare global {
  interface HTMLElementTagNameMap {
    'attention-variant': AttentionVariantElement;
    'attention-flash-tiles': AttentionFlashTilesElement;
    'attention-quantised-cache': AttentionQuantisedCacheElement;
    'attention-kv-bill': AttentionKvBillElement;
    'attention-flash-traffic': AttentionFlashTrafficElement;
    'attention-kv-curve': AttentionKvCurveElement;
    'attention-layer-inputs': AttentionLayerInputsElement;
  }
}
