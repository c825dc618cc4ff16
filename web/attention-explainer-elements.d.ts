// Type declarations of the custom elements attention-explainer.js registers (the walkthrough's
// explainer, the model and its pieces, the layer of heads and the head_dim study), written by
// hand next to attention-explainer.d.ts, which re-exports them: import them from the package
// ("attention-by-hand"), not from this file. tests/web/web-package.test.mjs checks them against
// the elements' attributes.

import type {
  AttentionInput, AttentionTrace, MaskKind, NextWordScores, ScaleKind,
} from './attention-explainer.js';

/** A step an explainer or <attention-step> can show. */
export type StepName =
  | 'q' | 'k' | 'v' | 'scores' | 'scaled' | 'masked' | 'softmax' | 'weights' | 'mix' | 'out'
  | 'grid' | 'arrows';

/**
 * `detail` of the `attention-change` event, one shape whichever element fires it: `result` is
 * what the element now shows (computed by the core; read-only), `problem` what was refused, or
 * null. Some elements add the result under their own name too (`trace`, `layer`, `study`, `view`).
 */
export interface ChangeDetail<Result> {
  result: Result | null;
  problem: string | null;
}

/** `detail` of the `attention-change` event of <attention-explainer> and <attention-model>. */
export interface AttentionChangeDetail extends ChangeDetail<AttentionTrace> {
  result: AttentionTrace;
  /** The new trace (the same object as `result`), same shape as run() returns. */
  trace: AttentionTrace;
}

/** Fired (bubbling, composed) by <attention-explainer> and <attention-model> after every new trace. */
export type AttentionChangeEvent = CustomEvent<AttentionChangeDetail>;

/** The live model behind an <attention-model> or <attention-explainer>. */
export interface AttentionModel extends EventTarget {
  readonly connected: boolean;
  readonly trace: AttentionTrace | null;
  /** Whether the latest update came from a reader's edit of one cell (editCell). */
  readonly changedByCellEdit: boolean;
  readonly input: AttentionInput | null;
  /**
   * What keeps the model from a trace, worded for the author; `training: true` while tokens
   * given alone wait for part three's trained head (a status, not a fault).
   */
  readonly problem: { attribute: string; path: string; detail: string; text: string; training?: boolean } | null;
  /** A reader's edit of one cell; returns the core's objection, or null when it was applied. */
  setCell(matrix: 'q' | 'k' | 'v', row: number, col: number, value: number): AttentionModel['problem'];
  /**
   * A reader's edit from an editable step: applied by `editor` when one is set, else by setCell.
   * `history`: 'push' for the first change to a cell being typed in, 'replace' after it.
   */
  editCell(matrix: 'q' | 'k' | 'v', row: number, col: number, value: number,
    options?: { history?: 'push' | 'replace' }): AttentionModel['problem'];
  /**
   * Who applies a reader's edit of a cell; null (the default): the model itself. A page that
   * keeps the state itself sets a function that checks and records the edit, shows the result
   * with show() and returns the objection or null.
   */
  editor: ((matrix: 'q' | 'k' | 'v', row: number, col: number, value: number,
    options: { history: 'push' | 'replace' }) => AttentionModel['problem']) | null;
  /** Shows an input the page has already run through the core, with the trace run() gave. */
  show(input: AttentionInput, trace: AttentionTrace): void;
  setMask(mask: MaskKind): AttentionModel['problem'];
  reset(): void;
}

/**
 * Attributes `tokens`, `q`, `k`, `v`, `mask`, `scale` configure the model; each property reads the
 * current value (a reader's edits included) and writing it configures the model as the
 * attribute does. Unset ones take the article's example, except that `tokens` given without
 * any of `q`, `k`, `v` take Q, K and V from the trained head of part three's default run
 * (seed 1, 200 steps), trained on demand in a worker; a word outside its vocabulary is refused.
 */
export interface ModelOwnerElement extends HTMLElement {
  tokens: string[] | null;
  q: number[][] | null;
  k: number[][] | null;
  v: number[][] | null;
  mask: MaskKind | string | null;
  /** What the scores are divided by: √d_k (`sqrt_d`, the default), d_k (`d`) or nothing (`none`). */
  scale: ScaleKind | string | null;
  /** The current trace, or null before the core has answered or while the configuration is bad. */
  readonly trace: AttentionTrace | null;
  readonly attentionModel: AttentionModel;
  /** Drops a reader's edits. */
  reset(): void;
}

/** <attention-explainer>: the walkthrough in one box, or the steps it lists. */
export interface AttentionExplainerElement extends ModelOwnerElement {
  /** Attribute `steps` ("scores,masked,weights,out"); the walkthrough's steps when unset. */
  steps: StepName[];
  /** Attribute `row`: the token whose softmax and mix are worked out (-1: the last). */
  row: number | null;
  /** Attribute `editable`: Q, K and V cells can be edited. */
  editable: boolean;
  /** Attribute `controls`: shows the mask choice and a reset button. */
  controls: boolean;
  /**
   * Attribute `practice`: the cells shown as blanks for the reader to work out
   * ("scores:1.0,weights"; "" for one cell of each step; docs/practice.md), or null for none.
   */
  practice: string | null;
}

/** <attention-model id="…">: a model the per-piece elements show; renders only its problems. */
export interface AttentionModelElement extends ModelOwnerElement {}

/** What the per-piece elements share. */
export interface AttentionPieceElement extends HTMLElement {
  /** Attribute `model`: the id of the <attention-model> (or explainer) to show. */
  model: string | null;
  /** The trace of the model shown. */
  readonly trace: AttentionTrace | null;
  /** Attribute `light-dom`: draws into the page (styled by its CSS) instead of a shadow root. */
  lightDom: boolean;
}

/** <attention-step step="…">: one step's table. */
export interface AttentionStepElement extends AttentionPieceElement {
  step: StepName | string | null;
  /** Attribute `row` (as text): the row of `softmax` and `mix`. */
  row: string | null;
  /** Attribute `editable`: the q, k or v table takes typed values. */
  editable: boolean;
  /** Attribute `practice`: the cells of this step shown as blanks (as on the explainer). */
  practice: string | null;
  /** Attribute `workings`: pointing at a computed cell shows under the table how it was worked out. */
  workings: boolean;
  /** Attribute `tools`: the "Copy table" menu under a computed table, and arrow-key cells. */
  tools: boolean;
  /** Attribute `caption`: the table's caption; `{tokens}`, `{token}` (the row's), `{mask}` and `{scale}` are filled in. */
  caption: string | null;
  /** Attribute `table-name`: the table's `data-table` name instead of the step's. */
  tableName: string | null;
  /** Attribute `no-legend`: a `grid` without its key to the shades. */
  noLegend: boolean;
}

/** <attention-mask-grid>: the weights grid with masked cells hatched. */
export interface AttentionMaskGridElement extends AttentionPieceElement {
  /** Attribute `editable`: adds a mask choice. */
  editable: boolean;
}

/** <attention-arrows>: arrows from each token to the tokens it can see. */
export interface AttentionArrowsElement extends AttentionPieceElement {
  /** Attribute `row` (as text): only that token's arrows. */
  row: string | null;
  /** Attribute `caption`: a caption under the figure, placeholders as on <attention-step>. */
  caption: string | null;
}

/** <attention-working>: how one cell was computed. */
export interface AttentionWorkingElement extends AttentionPieceElement {
  /** Attribute `row` (as text): the query token; the last one by default. */
  row: string | null;
  /** Attribute `col` (as text): the key token; `row` by default. */
  col: string | null;
  /** Attribute `of`: `score` (the dot product, the default) or `weight` (e^x ÷ total). */
  of: 'score' | 'weight' | string | null;
}

/** <attention-next-word>: one token's output scored against the toy vocabulary (step 6). */
export interface AttentionNextWordElement extends AttentionPieceElement {
  /** Attribute `row` (as text): the token whose output is scored; the last one by default. */
  row: string | null;
  /** The scores shown, or null (before the core answers, or for a head_dim the vocabulary has not). */
  readonly scored: NextWordScores | null;
  /** The toy vocabulary, or null before the core answers. */
  readonly vocabulary: { words: string[]; vectors: number[][] } | null;
}

/** What multiHead() returns: a layer of `n_heads` heads of `head_dim` over `d_model`. */
export interface MultiHeadLayer {
  tokens: string[];
  d_model: number;
  n_heads: number;
  head_dim: number;
  mask: MaskKind | string;
  scale: ScaleKind | string;
  /** The seeded token vectors, one row of d_model per token. */
  x: number[][];
  /** Per head: its d_model × head_dim projections and its trace (q, k, v are x · W). */
  heads: Array<{ w_q: number[][]; w_k: number[][]; w_v: number[][]; trace: AttentionTrace }>;
  /** The heads' outputs side by side, then mixed by W_O (d_model × d_model) into `out`. */
  concat: number[][];
  w_o: number[][];
  out: number[][];
}

/** The `attention-change` event of <attention-heads>: `detail.result` (and `detail.layer`) is the new layer. */
export type AttentionHeadsChangeEvent = CustomEvent<ChangeDetail<MultiHeadLayer> & { result: MultiHeadLayer; layer: MultiHeadLayer }>;

/**
 * <attention-heads>: a layer of several heads computed by multiHead() (the full build). Each
 * attribute is a property; unset ones take the core's defaults (d_model 16, 4 heads, seed 1)
 * and the article's tokens, or, with `model`, that model's tokens, mask and scale.
 */
export interface AttentionHeadsElement extends HTMLElement {
  tokens: string[] | null;
  seed: number | null;
  /** Attribute `d-model`: the width of the token vectors. */
  dModel: number | null;
  /** Attribute `heads`: how many heads share d_model. */
  heads: number | null;
  mask: MaskKind | string | null;
  scale: ScaleKind | string | null;
  /** Attribute `model`: the id of the <attention-model> (or explainer) whose tokens, mask and scale it follows. */
  model: string | null;
  /** The layer shown, or null before the core has answered or while an attribute is wrong. */
  readonly layer: MultiHeadLayer | null;
}

/** The `attention-change` event of <attention-head-dim-study>: `detail.result` (and `detail.study`) is what headDimStudy() returned. */
export type AttentionHeadDimStudyChangeEvent = CustomEvent<ChangeDetail<Record<string, unknown>> & { study: Record<string, unknown> }>;

/**
 * <attention-head-dim-study>: why the scores are divided by √d_k, computed by headDimStudy()
 * (the full build). Each attribute is a property; unset ones take the core's defaults.
 */
export interface AttentionHeadDimStudyElement extends HTMLElement {
  /** Attribute `head-dims`: the head sizes studied. */
  headDims: number[] | null;
  tokens: number | null;
  samples: number | null;
  seed: number | null;
  mask: MaskKind | string | null;
  /** What the scaled side divides by: `sqrt_d` or `d`. */
  scale: ScaleKind | string | null;
  /** Attribute `controls`: the reader chooses the scaled side's divisor. */
  controls: boolean;
  /** The study shown, or null before the core has answered or while an attribute is wrong. */
  readonly study: Record<string, unknown> | null;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-explainer': AttentionExplainerElement;
    'attention-model': AttentionModelElement;
    'attention-step': AttentionStepElement;
    'attention-mask-grid': AttentionMaskGridElement;
    'attention-arrows': AttentionArrowsElement;
    'attention-working': AttentionWorkingElement;
    'attention-next-word': AttentionNextWordElement;
    'attention-heads': AttentionHeadsElement;
    'attention-head-dim-study': AttentionHeadDimStudyElement;
  }
  interface HTMLElementEventMap {
    'attention-change': AttentionChangeEvent;
  }
}
