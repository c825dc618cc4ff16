// The sequel page's shared inputs: the tokens, the seed and the token vectors X that every
// section runs on. X is shown as an editable table whose numbers come from the core (the seeded
// vectors, or the reader's own); a typed number is checked by the core before any section gets
// it, and a refused one is named next to the table while the sections keep the last good X.

import { formatCompact } from '../web/views/format.js';
import { parseNumberText, formatTokens, parseTokens } from '../web/elements/element-config.js';
import { renderMatrixTable, renderScrollable } from '../web/views/render-tables.js';

const editable = (value) => formatCompact(value, 6);

/**
 * @param {Document} doc
 * @param {object} attention  the core's API
 * @param {(change: {tokens?: string[], seed?: number, x?: number[][] | null}) => void} onChange
 */
export function createSharedInputs(doc, attention, onChange) {
  const tokensInput = doc.getElementById('tokens-input');
  const seedInput = doc.getElementById('seed-input');
  const reset = doc.getElementById('reset-x');
  const message = doc.getElementById('input-message');
  const slot = doc.querySelector('[data-slot="x-table"]');
  let current = null;  // {tokens, seed, x, edited}

  function say(text) {
    message.hidden = text === null;
    message.textContent = text ?? '';
  }

  // The core's answer for these shared values: its x (seeded, or the given one checked).
  function layerOf({ tokens, seed, x }) {
    const request = {};
    if (tokens) request.tokens = tokens;
    if (seed !== undefined) request.seed = seed;
    if (x) request.x = x;
    return attention.groupedAttention(request);
  }

  function drawTable(layer) {
    const table = renderMatrixTable(doc, layer.x, {
      name: 'x',
      caption: `X \u00b7 the token vectors, ${layer.d_model} numbers each${current.edited ? ' (edited)' : ` (seed ${layer.seed})`}`,
      corner: 'token',
      rowLabels: layer.tokens,
      columnLabels: Array.from({ length: layer.d_model }, (_, c) => `x${c}`),
      format: (value) => editable(value),
      className: 'editable',
    });
    for (const cell of table.querySelectorAll('td[data-row][data-col]')) {
      const row = Number(cell.dataset.row);
      const col = Number(cell.dataset.col);
      const input = doc.createElement('input');
      Object.assign(input, { type: 'text', inputMode: 'decimal', spellcheck: false, autocomplete: 'off', size: 5 });
      input.className = 'cell-input';
      input.value = editable(layer.x[row][col]);
      input.dataset.row = String(row);
      input.dataset.col = String(col);
      input.setAttribute('aria-label', `x${col} of ${layer.tokens[row]}`);
      cell.replaceChildren(input);
    }
    slot.replaceChildren(renderScrollable(doc, table, table.caption.textContent));
    slot.removeAttribute('aria-busy');
  }

  /** Shows these shared values (from the page's start or its hash); returns the layer, or throws. */
  function show(values) {
    const layer = layerOf(values);
    current = { tokens: layer.tokens, seed: layer.seed, x: layer.x, edited: Boolean(values.x) };
    tokensInput.value = formatTokens(layer.tokens);
    tokensInput.removeAttribute('aria-invalid');
    seedInput.value = String(layer.seed);
    seedInput.removeAttribute('aria-invalid');
    reset.disabled = !current.edited;
    drawTable(layer);
    return layer;
  }

  function commit(values, { redraw = true } = {}) {
    let layer;
    try {
      layer = layerOf(values);
    } catch (error) {
      say(`${error.message}. The sections keep the last good input.`);
      return false;
    }
    say(null);
    current = { tokens: layer.tokens, seed: layer.seed, x: layer.x, edited: Boolean(values.x) };
    reset.disabled = !current.edited;
    if (redraw) drawTable(layer);
    onChange({ tokens: values.tokens, seed: values.seed, x: values.x ?? null });
    return true;
  }

  tokensInput.addEventListener('change', () => {
    let tokens;
    try {
      tokens = parseTokens(tokensInput.value);
    } catch (error) {
      tokensInput.setAttribute('aria-invalid', 'true');
      say(`Tokens: ${error.detail ?? error.message}.`);
      return;
    }
    // New tokens need new vectors: the seed draws them.
    if (commit({ tokens, seed: current.seed })) tokensInput.removeAttribute('aria-invalid');
    else tokensInput.setAttribute('aria-invalid', 'true');
  });

  seedInput.addEventListener('change', () => {
    const text = seedInput.value.trim();
    if (!/^\d{1,16}$/u.test(text)) {
      seedInput.setAttribute('aria-invalid', 'true');
      say(`Seed: \u201c${text}\u201d is not a whole number.`);
      return;
    }
    const ok = commit({ tokens: current.tokens, seed: Number(text) });
    if (ok) seedInput.removeAttribute('aria-invalid');
    else seedInput.setAttribute('aria-invalid', 'true');
  });

  reset.addEventListener('click', () => commit({ tokens: current.tokens, seed: current.seed }));

  slot.addEventListener('change', (event) => {
    const input = event.target;
    if (!(input instanceof doc.defaultView.HTMLInputElement) || input.dataset.row === undefined) return;
    const row = Number(input.dataset.row);
    const col = Number(input.dataset.col);
    const value = parseNumberText(input.value);
    const name = `x${col} of \u201c${current.tokens[row]}\u201d`;
    if (value === null) {
      input.setAttribute('aria-invalid', 'true');
      say(`${name}: \u201c${input.value.slice(0, 24)}\u201d is not a number. The sections keep the last good input.`);
      return;
    }
    const x = current.x.map((values) => [...values]);
    x[row][col] = value;
    if (commit({ tokens: current.tokens, seed: current.seed, x }, { redraw: false })) {
      input.removeAttribute('aria-invalid');
      input.value = editable(current.x[row][col]);
      const caption = slot.querySelector('caption');
      if (caption) caption.textContent = `X \u00b7 the token vectors, ${current.x[0].length} numbers each (edited)`;
    } else {
      input.setAttribute('aria-invalid', 'true');
    }
  });

  return {
    show,
    /** The shared values as the hash keeps them (x only when edited). */
    get state() {
      return current ? { tokens: current.tokens, seed: current.seed, x: current.edited ? current.x : undefined } : {};
    },
  };
}
