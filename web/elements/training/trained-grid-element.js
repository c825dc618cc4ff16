// <attention-trained-grid>: the attention weights of the reader's sentence under the trained
// head, one table per head, for the step the trainer shows: rows are the words that look
// (queries), columns the words looked at (keys), each cell shaded by its weight, the masked
// future shown as "—" and each row's largest weight outlined. Follows the trainer as it trains.

import { shadeLevel } from '../../views/format.js';
import { TrainingPiece } from './training-base.js';
import { formatWeight } from './training-format.js';

const LEVELS = 5;

export class AttentionTrainedGridElement extends TrainingPiece {
  draw({ view }) {
    const { layer } = view;
    if (!layer) {
      this.frame.replaceChildren(this.make('p', 'note',
        `The sentence was changed after step ${view.step}: its grid was not recorded for this step. Move the slider to the latest step.`));
      return;
    }
    const blocks = layer.heads.map((head, h) => this.#table(layer.tokens, head.trace.weights, h, layer.heads.length, view.step));
    this.frame.replaceChildren(...blocks);
  }

  #table(words, weights, h, headCount, step) {
    const block = this.make('div', 'head-block');
    const title = headCount > 1 ? `Head ${h + 1}: attention weights at step ${step}` : `Attention weights at step ${step}`;
    const scroll = this.make('div', 'scroll');
    // A table wider than the screen scrolls; the keyboard can reach it to scroll it.
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-label', title);
    const table = this.make('table', 'weights-grid');
    table.setAttribute('part', 'table');
    table.append(this.make('caption', '', `${title}: each row, a word, shares its attention among itself and the words before it.`));
    const head = this.make('thead');
    const headRow = this.make('tr');
    headRow.append(this.make('td'));
    words.forEach((word, j) => {
      const th = this.make('th', '', `${j + 1} ${word}`);
      th.scope = 'col';
      headRow.append(th);
    });
    head.append(headRow);
    const body = this.make('tbody');
    weights.forEach((row, i) => {
      const tr = this.make('tr');
      const th = this.make('th', '', `${i + 1} ${words[i]}`);
      th.scope = 'row';
      tr.append(th);
      let largest = 0;
      for (let j = 1; j <= i; j += 1) if (row[j] > row[largest]) largest = j;
      row.forEach((w, j) => {
        if (j > i) {
          tr.append(this.make('td', 'masked', '\u2014'));
          return;
        }
        const td = this.make('td', `shade-${shadeLevel(w, LEVELS)}${j === largest ? ' largest' : ''}`, formatWeight(w));
        tr.append(td);
      });
      body.append(tr);
    });
    table.append(head, body);
    scroll.append(table);
    block.append(scroll);
    return block;
  }
}
