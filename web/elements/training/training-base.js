// What the training elements add to the one element base (element-base.js: shadow root, frame,
// message box, body): the training sheet, and, for the pieces that draw a trainer's state,
// finding that trainer and following its `attention-change` events.
//
// A piece names its trainer with `for="trainer-id"` (looked up in the piece's own root node, so
// it works inside another shadow root too), or sits inside an <attention-trainer>, or, with
// neither, follows the first <attention-trainer> of its root node.

// What a piece listens for on its trainer: the trainer's attention-change (change-event.js).
import { CHANGE_EVENT as TRAINING_CHANGE_EVENT } from '../change-event.js';
import { AttentionElementBase } from '../element-base.js';
import { adoptTrainingStyles } from './training-styles.js';

export class TrainingElement extends AttentionElementBase {
  constructor() {
    super({ styles: [adoptTrainingStyles], editsCells: false });
  }

  /** Creates an element of this element's document with a class and text. */
  make(tag, className, text) {
    const node = this.ownerDocument.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
}

/** A piece that draws what an <attention-trainer> shows: subclasses implement draw(detail). */
export class TrainingPiece extends TrainingElement {
  #listening = null;
  #trainer = null;

  static get observedAttributes() { return ['for']; }

  connectedCallback() {
    this.#follow();
  }

  disconnectedCallback() {
    this.#listening?.removeEventListener(TRAINING_CHANGE_EVENT, this.#onChange);
    this.#listening = null;
  }

  attributeChangedCallback() {
    if (this.isConnected) this.#follow();
  }

  /** The <attention-trainer> this piece follows, or null. */
  get trainer() {
    const root = this.getRootNode();
    const named = this.getAttribute('for');
    if (named) return root.getElementById?.(named) ?? null;
    return this.closest('attention-trainer') ?? root.querySelector?.('attention-trainer') ?? null;
  }

  #follow() {
    this.disconnectedCallback();
    // The events bubble to the root node, so a trainer defined or added later is heard too.
    this.#listening = this.getRootNode();
    this.#listening.addEventListener(TRAINING_CHANGE_EVENT, this.#onChange);
    const trainer = this.trainer;
    if (trainer?.view) this.#draw(trainer);
    else if (!this.body.firstChild) this.body.append(this.make('p', 'note', 'Waiting for the trainer\u2026'));
  }

  #onChange = (event) => {
    const trainer = this.trainer;
    if (!trainer || event.target !== trainer) return;
    this.#draw(trainer);
  };

  #draw(trainer) {
    this.#trainer = trainer;
    this.draw({ view: trainer.view, run: trainer.run, live: trainer.live, trainer });
  }

  /** @param {{view: object, run: import('../../api/training-run.js').TrainingRun, live: boolean}} detail */
  draw(detail) { void detail; }
}
