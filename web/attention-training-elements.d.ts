// Type declarations for attention-training-elements.js (import "attention-by-hand/training-elements").
// Hand-written next to the module; tests/web/web-package.test.mjs checks them against it.

import type { ChangeDetail } from './attention-explainer.js';

export { createAttention } from './attention-explainer.js';

/** What a run keeps of every step: its losses (the curve's points). */
export interface TrainingLosses {
  step: number;
  loss: number;
  heldOutLoss: number | null;
}

/** A step's snapshot: its losses, its parameters' digest and the heads' weights. */
export interface TrainingStep extends TrainingLosses {
  /** attention.trainer().state().parameter_digest at this step: equal digests, equal parameters. */
  digest: string;
  /** Per head: d_model rows of head_dim numbers. */
  w_q: number[][][];
  w_k: number[][][];
  w_v: number[][][];
  /**
   * Of attention.trainer().attend() on the sentence shown when the step was taken: the words
   * and each head's q, k, v and weights (null after a change of sentence).
   */
  layer: { tokens: string[]; heads: { trace: { q: number[][]; k: number[][]; v: number[][]; weights: number[][] } }[] } | null;
}

/**
 * The run an <attention-trainer> owns. Its steps are taken in a module Web Worker (or, where
 * none can start, on the page in slices of 12 ms); the page keeps every step's losses, and the
 * snapshots of the latest 64 steps and of the last 8 fetched.
 */
export interface TrainingRun {
  readonly history: TrainingLosses[];
  readonly latest: TrainingStep;
  /** Step `step`'s snapshot when the page holds it, else null. */
  snapshot(step: number): TrainingStep | null;
  /** Step `step`'s snapshot, replayed in the worker from its nearest checkpoint when not held. */
  fetchSnapshot(step: number): Promise<TrainingStep>;
  /** attention.trainer().state() without the parameters, kept up to date at each step. */
  readonly state: Record<string, unknown>;
  readonly sentence: string[];
  /** Why the run stopped by itself (a diverged step), or null. */
  readonly stopped: string | null;
  /** Whether the steps run in a worker. */
  readonly inWorker: boolean;
  /** Each head's attention weights on `sentences` with the parameters of recorded step `step`. */
  measure(step: number, sentences: string[][]): Promise<{ step: number; runs: { words: string[]; weights: number[][][] }[] }>;
}

/** detail of the bubbling, composed `attention-change` event of <attention-trainer>. */
export interface TrainingChangeDetail extends ChangeDetail<TrainingStep> {
  /** The step shown (the same object as `view`). */
  result: TrainingStep;
  problem: null;
  view: TrainingStep;
  /** Whether the step shown is the latest. */
  live: boolean;
}

/** <attention-trainer>: one training run and its controls. */
export interface AttentionTrainerElement extends HTMLElement {
  readonly run: TrainingRun | null;
  readonly view: TrainingStep | null;
  readonly live: boolean;
  readonly playing: boolean;
  /** Whether a pause or a single step is still on its way back from the worker. */
  readonly busy: boolean;
  /** Resolves once the run has started (or the core failed to load); what a script asks before then waits for it. */
  readonly ready: Promise<void>;
  play(): void;
  /** Resolves once every step the worker took is recorded. */
  pause(): Promise<void>;
  stepOnce(): Promise<void>;
  reset(): Promise<void>;
  /** Shows step `step`; one the page no longer holds is shown once the worker has replayed it. */
  scrubTo(step: number): void;
  /** Resolves to false (and the message shown) when the sentence is refused; nothing else changes. */
  setSentence(text: string): Promise<boolean>;
  /** False (and the message shown) when the learning rate is refused; nothing else changes. */
  setLearningRate(text: string): boolean;
}

/** What the four pieces share: the trainer they follow (attribute `for`, or the one around them). */
export interface TrainingPiece extends HTMLElement {
  readonly trainer: AttentionTrainerElement | null;
}

/** <attention-loss-curve>: training and held-out loss with the unigram and bigram baselines. */
export interface AttentionLossCurveElement extends TrainingPiece {}
/** <attention-trained-weights>: W_Q, W_K, W_V of each head, shaded. */
export interface AttentionTrainedWeightsElement extends TrainingPiece {}
/** <attention-trained-grid>: the attention weights of the trainer's sentence. */
export interface AttentionTrainedGridElement extends TrainingPiece {}
/** <attention-head-report>: what the head learned by the step shown, measured on the held-out sentences. */
export interface AttentionHeadReportElement extends TrainingPiece {
  /** The step the report shown describes (null before the first measurement). */
  readonly step: number | null;
  readonly report: { sentences: number; counted: number; heads: { meanWeight: number; largest: number }[]; distance: number | null } | null;
}

export declare const AttentionTrainerElement: { new (): AttentionTrainerElement; readonly observedAttributes: string[] };
export declare const AttentionLossCurveElement: { new (): AttentionLossCurveElement; readonly observedAttributes: string[] };
export declare const AttentionTrainedWeightsElement: { new (): AttentionTrainedWeightsElement; readonly observedAttributes: string[] };
export declare const AttentionTrainedGridElement: { new (): AttentionTrainedGridElement; readonly observedAttributes: string[] };
export declare const AttentionHeadReportElement: { new (): AttentionHeadReportElement; readonly observedAttributes: string[] };

/** Defines every training element in `registry` (the page's customElements by default); importing the module already did, in a browser. */
export function defineTrainingElements(registry?: CustomElementRegistry): void;

declare global {
  interface HTMLElementTagNameMap {
    'attention-trainer': AttentionTrainerElement;
    'attention-loss-curve': AttentionLossCurveElement;
    'attention-trained-weights': AttentionTrainedWeightsElement;
    'attention-trained-grid': AttentionTrainedGridElement;
    'attention-head-report': AttentionHeadReportElement;
  }
}
