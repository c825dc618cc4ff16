// <attention-trained-grid>: the attention weights of the reader's sentence under the trained
// head, one table per head, for the step the trainer shows: rows are the words that look
// (queries), columns the words looked at (keys), each cell shaded by its weight, the masked
// future shown as "—" and each row's largest weight outlined. Follows the trainer as it trains.

import { shadeLevel } from '../../views/format.js';
import { TrainingPiece } from './training-base.js';
import { formatWeight } from './training-format.js';

const LEVELS = 5;

/** The column of row `i`'s largest visible weight (the first of equals). */
function largestVisible(row, i) {
  let largest = 0;
  for (let j = 1; j <= i; j += 1) if (row[j] > row[largest]) largest = j;
  return largest;
}

export class AttentionTrainedGridElement extends TrainingPiece {
  draw({ view }) {
    const { layer } = view;
    if (!layer) {
      this.body.replaceChildren(this.make('p', 'note',
        `The sentence was changed after step ${view.step}: its grid was not recorded for this step. Move the slider to the latest step.`));
      return;
    }
    // The same words and heads as the tables shown: their cells are rewritten in place (a new
    // table every frame while training would cost the page a layout each time).
    const key = JSON.stringify([layer.tokens, layer.heads.length]);
    if (this.body.dataset.shape === key && this.#refill(layer, view.step)) return;
    const blocks = layer.heads.map((head, h) => this.#table(layer.tokens, head.trace.weights, h, layer.heads.length, view.step));
    this.body.replaceChildren(...blocks);
    this.body.dataset.shape = key;
  }

  #refill(layer, step) {
    const tables = this.body.querySelectorAll('table');
    if (tables.length !== layer.heads.length) return false;
    layer.heads.forEach((head, h) => {
      const table = tables[h];
      const title = this.#title(h, layer.heads.length, step);
      const caption = this.#caption(title);
      if (table.caption.textContent !== caption) table.caption.textContent = caption;
      table.parentElement.setAttribute('aria-label', title);
      head.trace.weights.forEach((row, i) => {
        const cells = table.tBodies[0].rows[i].cells;
        const largest = largestVisible(row, i);
        for (let j = 0; j <= i; j += 1) {
          // Only what changed is written: an unchanged text or class costs no style and layout.
          const td = cells[j + 1];
          const shade = `shade-${shadeLevel(row[j], LEVELS)}${j === largest ? ' largest' : ''}`;
          const text = formatWeight(row[j]);
          if (td.className !== shade) td.className = shade;
          if (td.textContent !== text) td.textContent = text;
        }
      });
    });
    return true;
  }

  #title(h, headCount, step) {
    return headCount > 1 ? `Head ${h + 1}: attention weights at step ${step}` : `Attention weights at step ${step}`;
  }

  #caption(title) {
    return `${title}: each row, a word, shares its attention among itself and the words before it.`;
  }

  #table(words, weights, h, headCount, step) {
    const block = this.make('div', 'head-block');
    const title = this.#title(h, headCount, step);
    const scroll = this.make('div', 'scroll');
    // A table wider than the screen scrolls; the keyboard can reach it to scroll it.
    scroll.tabIndex = 0;
    scroll.setAttribute('role', 'region');
    scroll.setAttribute('aria-label', title);
    const table = this.make('table', 'weights-grid');
    table.setAttribute('part', 'table');
    table.append(this.make('caption', '', this.#caption(title)));
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
      const largest = largestVisible(row, i);
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
