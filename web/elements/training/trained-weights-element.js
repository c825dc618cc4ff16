// <attention-trained-weights>: each head's W_Q, W_K and W_V as shaded matrices (one pixel
// block per weight: blue above zero, orange below, white at zero, on the matrix's own scale),
// for the step the trainer shows, so that a reader sees the seed's noise turn into structure.
// A canvas is an image: its text alternative names the matrix, its size and its range.

import { TrainingPiece } from './training-base.js';

const NAMES = [['w_q', 'W_Q'], ['w_k', 'W_K'], ['w_v', 'W_V']];

const POSITIVE = [31, 95, 168];
const NEGATIVE = [179, 92, 0];

/**
 * Writes the [r, g, b] of weight `w` on a scale of ±`limit` (blue above zero, orange below) into
 * `target` from index `at`: a frame's pixels are written in place, with no array per weight.
 */
export function writeWeightRgb(target, at, w, limit) {
  const t = limit > 0 ? Math.min(1, Math.abs(w) / limit) : 0;
  const ends = w >= 0 ? POSITIVE : NEGATIVE;
  for (let c = 0; c < 3; c += 1) target[at + c] = Math.round(255 + (ends[c] - 255) * t);
}

/** [r, g, b] of weight `w` on a scale of ±`limit`: blue (positive) or orange (negative). */
export function weightRgb(w, limit) {
  const rgb = [0, 0, 0];
  writeWeightRgb(rgb, 0, w, limit);
  return rgb;
}

/** The colour of weight `w` on a scale of ±`limit`, as CSS. */
export function weightColour(w, limit) {
  const [r, g, b] = weightRgb(w, limit);
  return `rgb(${r} ${g} ${b})`;
}

export class AttentionTrainedWeightsElement extends TrainingPiece {
  #canvases = new Map();
  #images = new WeakMap();  // canvas -> its ImageData, reused frame after frame

  draw({ view }) {
    const heads = view.w_q.length;
    const key = `${heads}`;
    if (this.body.dataset.shape !== key) this.#build(view, heads, key);
    for (let h = 0; h < heads; h += 1) {
      for (const [name, label] of NAMES) {
        const { canvas, scale } = this.#canvases.get(`${name}-${h}`);
        this.#paint(canvas, scale, view[name][h], `${label}${heads > 1 ? ` of head ${h + 1}` : ''}`, view.step);
      }
    }
  }

  #build(view, heads, key) {
    this.body.dataset.shape = key;
    this.#canvases.clear();
    const nodes = [];
    for (let h = 0; h < heads; h += 1) {
      const block = this.make('div', 'head-block');
      if (heads > 1) block.append(this.make('h3', '', `Head ${h + 1}`));
      const row = this.make('div', 'matrices');
      for (const [name, label] of NAMES) {
        const figure = this.make('figure', 'matrix');
        figure.append(this.make('figcaption', '', label));
        const canvas = this.make('canvas', 'weights');
        canvas.setAttribute('role', 'img');
        const scale = this.make('div', 'scale');
        figure.append(canvas, scale);
        row.append(figure);
        this.#canvases.set(`${name}-${h}`, { canvas, scale });
      }
      block.append(row);
      nodes.push(block);
    }
    nodes.push(this.make('p', 'note', 'Rows: the 16 numbers of a word\u2019s vector (d_model); columns: the head\u2019s numbers (head_dim). Blue above zero, orange below, on each matrix\u2019s own scale.'));
    this.body.replaceChildren(...nodes);
  }

  #paint(canvas, scale, matrix, label, step) {
    const rows = matrix.length;
    const cols = matrix[0].length;
    if (canvas.width !== cols || canvas.height !== rows) {
      canvas.width = cols;
      canvas.height = rows;
    }
    let limit = 0;
    let low = Infinity;
    let high = -Infinity;
    for (const row of matrix) for (const w of row) {
      limit = Math.max(limit, Math.abs(w));
      low = Math.min(low, w);
      high = Math.max(high, w);
    }
    const context = canvas.getContext('2d');
    if (context) {
      // One pixel per weight, written at once into the canvas's own buffer: a redraw every
      // frame while training stays cheap and allocates nothing.
      let image = this.#images.get(canvas);
      if (!image || image.width !== cols || image.height !== rows) {
        image = context.createImageData(cols, rows);
        this.#images.set(canvas, image);
      }
      const { data } = image;
      for (let i = 0; i < rows; i += 1) {
        for (let j = 0; j < cols; j += 1) {
          const at = 4 * (i * cols + j);
          writeWeightRgb(data, at, matrix[i][j], limit);
          data[at + 3] = 255;
        }
      }
      context.putImageData(image, 0, 0);
    }
    canvas.setAttribute('aria-label', `${label} at step ${step}: ${rows} by ${cols} weights from ${low.toFixed(2)} to ${high.toFixed(2)}`);
    // The scale's two labels are rewritten only when they change (a new text is a new layout).
    const ends = [`\u2212${limit.toFixed(2)}`, `+${limit.toFixed(2)}`];
    if (scale.children.length !== 2) scale.replaceChildren(this.make('span'), this.make('span'));
    ends.forEach((text, i) => { if (scale.children[i].textContent !== text) scale.children[i].textContent = text; });
  }
}
