// <attention-working>: how one cell of its model's trace was computed, a score (the dot product
// of a query with a key, term by term) or a weight (e^x over the row's total). A piece like the
// others (see element-pieces.js): it shows the model its `model` attribute names.

import { AttentionPiece, PIECE_ATTRIBUTES, reflectString } from './element-pieces.js';
import { ConfigError } from './element-config.js';
import { renderWorking, updateWorking } from '../views/step-views.js';
import { quoteText } from '../state/quote-text.js';

export class AttentionWorkingElement extends AttentionPiece {
  static observedAttributes = [...PIECE_ATTRIBUTES, 'row', 'col', 'of'];

  constructor() {
    super();
    this.upgradeProperties(['row', 'col', 'of']);
  }

  /** The working on screen, brought up to each new trace in place while it keeps its shape. */
  #shown = null;

  renderPiece(doc, trace) {
    const row = this.indexAttribute('row', trace.token_count, trace.token_count - 1);
    const col = this.indexAttribute('col', trace.token_count, row);
    const of = this.getAttribute('of') ?? 'score';
    if (of !== 'score' && of !== 'weight') {
      throw new ConfigError('of', `must be "score" or "weight", got ${quoteText(of)}`);
    }
    if (!this.#shown || this.#shown.of !== of || !updateWorking(this.#shown.block, trace, { row, col, of })) {
      this.#shown = { of, block: renderWorking(doc, trace, { row, col, of }) };
    }
    return [this.#shown.block];
  }
}
reflectString(AttentionWorkingElement, 'row');
reflectString(AttentionWorkingElement, 'col');
reflectString(AttentionWorkingElement, 'of');
