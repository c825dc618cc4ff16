// Type declarations for attention-practice-elements.js (import "attention-by-hand/practice-elements").
// Hand-written next to the module; tests/web/web-package.test.mjs checks them against it.
//
// <attention-worksheet> keeps its whole state in its attributes (practice, round, round-seed,
// level, answers, and without a round tokens, q, k, v, mask, scale), listed with examples on the
// site's authors page.

export { createAttention } from './attention-explainer.js';

/** detail of the bubbling, composed `attention-worksheet` event fired after every rendering. */
export interface WorksheetDetail {
  /** Whether the worksheet is shown. */
  ok: boolean;
  /** Why nothing is shown, naming the attribute at fault; null when the worksheet is shown. */
  problem: string | null;
  /** How many blanks the worksheet has (0 when none is shown). */
  blanks: number;
  /** Whether it shows the answer key. */
  answers: boolean;
}

/** <attention-worksheet>: an exercise laid out to be printed, or its answer key with the working. */
export interface AttentionWorksheetElement extends HTMLElement {
  /** What is drawn: the title, the inputs, the steps with their tables and (in the key) answers; null while none is. */
  readonly layout: Record<string, unknown> | null;
  /** Why nothing is shown, naming the attribute at fault, or null. */
  readonly problem: string | null;
}

export declare const AttentionWorksheetElement: { new (): AttentionWorksheetElement; readonly observedAttributes: string[] };

/** Defines every practice element in `registry` (the page's customElements by default); importing the module already did, in a browser. */
export function definePracticeElements(registry?: CustomElementRegistry): void;

declare global {
  interface HTMLElementTagNameMap {
    'attention-worksheet': AttentionWorksheetElement;
  }
}
