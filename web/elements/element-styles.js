// The elements' look, as one constructable stylesheet adopted by every shadow root (a
// CSSStyleSheet built from text is not an inline style: it works under `style-src 'self'`).
//
// Isolation: selectors of the host page never reach inside a shadow root, but inherited
// properties (font, colour, direction, letter-spacing, line-height, text-align, …) do. The
// `.frame` wrapper therefore resets everything with `all: initial` and sets its own values;
// only custom properties still inherit, and those are the theming interface:
//   --attention-font, --attention-font-size, --attention-text, --attention-muted,
//   --attention-rule, --attention-paper, --attention-tint, --attention-accent, --attention-highlight,
//   --attention-alert, --attention-alert-rule, --attention-shade-0 … --attention-shade-4.
// Parts for ::part(): frame, step, table, caption, input, working, legend, arrows, controls,
// message, practice.

const CSS = `
:host { display: block; }
:host([hidden]), [hidden] { display: none !important; }

.frame {
  all: initial;
  display: block;
  direction: ltr;
  unicode-bidi: isolate;
  text-align: start;
  color: var(--attention-text, #1d2330);
  background: var(--attention-paper, transparent);
  font-family: var(--attention-font, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif);
  font-size: var(--attention-font-size, medium);
  line-height: 1.45;
  overflow-wrap: break-word;
  --paper: var(--attention-paper, #ffffff);
  --text: var(--attention-text, #1d2330);
  --muted: var(--attention-muted, #59606e);
  --rule: var(--attention-rule, #d9dde4);
  --tint: var(--attention-tint, #f5f7fa);
  --accent: var(--attention-accent, #1f5fa8);
  --hatch: repeating-linear-gradient(-45deg, transparent 0 4px, rgb(0 0 0 / 0.3) 4px 5.5px);
}
.frame *, .frame *::before, .frame *::after { box-sizing: border-box; }

p { margin: 0 0 0.6em; }
.step-view { margin: 0 0 1.25em; }
.step-view:last-child { margin-bottom: 0; }
.step-note { color: var(--muted); font-size: 0.9em; }

.visually-hidden {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip: rect(0 0 0 0); clip-path: inset(50%); white-space: nowrap; border: 0;
}

:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }

.table-scroll { position: relative; max-width: 100%; overflow-x: auto; }

table.matrix {
  border-collapse: collapse;
  border-spacing: 0;
  margin: 0;
  font: inherit;
  font-size: 0.95em;
  font-variant-numeric: tabular-nums lining-nums;
  line-height: 1.35;
  color: inherit;
  background: none;
  width: auto;
}
table.matrix caption {
  caption-side: top; padding: 0 0 0.4em; text-align: left; font-weight: 600; font-size: 0.9em;
  white-space: normal; /* wraps to the table's width; on one line it was cut off at 360 px */
}
table.matrix th, table.matrix td { padding: 0.35em 0.75em; vertical-align: middle; }
table.matrix thead th {
  border-bottom: 2px solid var(--text); text-align: right; font-weight: 600; white-space: nowrap;
}
table.matrix thead th.corner { text-align: left; color: var(--muted); font-weight: 400; font-size: 0.85em; }
table.matrix tbody th, table.matrix tfoot th {
  text-align: left; font-weight: 600; white-space: nowrap; unicode-bidi: isolate;
}
table.matrix tbody tr { border-bottom: 1px solid var(--rule); }
table.matrix td.num { text-align: right; white-space: nowrap; min-width: 5.5ch; }
table.matrix tfoot tr:first-child { border-top: 2px solid var(--text); }
table.matrix tfoot td.num, table.matrix tfoot th { font-weight: 600; }
table.matrix .extra { border-left: 2px solid var(--rule); }
table.matrix td.masked, .swatch.masked {
  background-color: #f1f2f4; background-image: var(--hatch); color: #4a505c;
}
table.matrix td.masked .value { padding: 0 0.2em; background: #f1f2f4; border-radius: 2px; }
table.softmax td.num, table.mix td.num { min-width: 8ch; }

table.editable td.num { padding: 0.15em 0.3em; }
.cell-input {
  all: initial;
  box-sizing: border-box;
  width: 8ch;
  padding: 0.2em 0.35em;
  font: inherit;
  font-variant-numeric: tabular-nums;
  text-align: right;
  color: var(--text);
  background: var(--paper);
  border: 1px solid #8c95a3;
  border-radius: 3px;
}
.cell-input:focus { outline: 3px solid var(--accent); outline-offset: 1px; }
/* An editable cell prints its number in the box its field will have (cell-field.js). */
table.editable td.editable-cell .value {
  display: inline-block; box-sizing: border-box; min-width: 8ch; padding: 0.2em 0.35em;
  text-align: right; background: var(--paper); border: 1px solid #8c95a3; border-radius: 3px; cursor: text;
}
table.editable td.editing > .value { display: none; }
.cell-input[aria-invalid="true"] { border-color: var(--attention-alert-rule, #b35c00); background: var(--attention-alert, #fff4e5); }

table.grid td.num { min-width: 7.5ch; padding: 0.6em 0.85em; border: 2px solid var(--paper); }
table.grid tbody tr { border-bottom: 0; }
.shade-0 { background-color: var(--attention-shade-0, #eff5fc); }
.shade-1 { background-color: var(--attention-shade-1, #cfe0f3); }
.shade-2 { background-color: var(--attention-shade-2, #9fc1e6); }
.shade-3 { background-color: var(--attention-shade-3, #2f6aad); color: #fff; }
.shade-4 { background-color: var(--attention-shade-4, #163b6b); color: #fff; }
table.grid td.shade-3, table.grid td.shade-4 { color: #fff; }

.legend { margin: 0.5em 0 0; font-size: 0.85em; }
.legend figcaption { margin-bottom: 0.3em; color: var(--muted); }
.legend-swatches {
  display: flex; flex-wrap: wrap; gap: 0.3em 0.9em; margin: 0; padding: 0; list-style: none;
  font-variant-numeric: tabular-nums;
}
.legend-swatches li { display: flex; align-items: center; gap: 0.35em; }
.swatch { display: inline-block; width: 1.5em; height: 1.1em; border: 1px solid #8c95a3; border-radius: 2px; }

.working {
  margin: 0 0 0.75em; padding: 0.6em 0.9em; font-size: 0.95em; background: var(--tint);
  border-left: 3px solid var(--accent); border-radius: 0 4px 4px 0; font-variant-numeric: tabular-nums;
}
.working p { margin: 0; }
.working-title { font-weight: 600; }
.working-line { padding-left: 1.4em; text-indent: -1.4em; }
.working-line .equals { display: inline-block; width: 1.4em; text-indent: 0; color: var(--muted); }
.working .term, .working .terms { white-space: nowrap; }
.working .operator { color: var(--muted); }

.table-block { margin: 0 0 1em; }
.table-block > .table-scroll { margin-bottom: 0.3em; }
.table-tools { font-size: 0.85em; }
.table-tools summary { display: inline-block; color: var(--accent); text-decoration: underline; text-underline-offset: 0.15em; }
.table-tools-formats { display: inline-flex; flex-wrap: wrap; gap: 0.35em; margin: 0.3em 0.5em 0 0; }
.table-tools button { font: inherit; padding: 0.15em 0.55em; }
.table-tools-status { color: var(--muted); }
.copy-fallback { display: grid; gap: 0.25em; margin-top: 0.4em; }
.copy-fallback textarea { width: 100%; font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.8em; }
.note, .shift-note { color: var(--muted); font-size: 0.95em; }

.cell-working { margin: 0.5em 0 0; }
.cell-working-hint { color: var(--muted); font-size: 0.9em; font-style: italic; }
table.matrix td.selected-cell { box-shadow: inset 0 0 0 3px var(--accent); }
table.matrix td.source-cell { box-shadow: inset 0 0 0 3px var(--attention-highlight, #b35c00); }

figure { margin: 0; }
svg.arrows { display: block; max-width: none; overflow: visible; font: inherit; }
svg.arrows .arrow-line { fill: none; stroke: var(--accent); stroke-opacity: 0.7; stroke-linecap: round; }
svg.arrows .arrow-head { fill: var(--accent); fill-opacity: 0.85; stroke: none; }
svg.arrows .arrow.forward .arrow-line { stroke-dasharray: none; }
svg.arrows .token { fill: var(--text); font-weight: 600; font-size: 0.95em; }
svg.arrows .token.focus { fill: var(--accent); }

.controls {
  display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em 1em; margin: 0 0 1em; font-size: 0.9em;
}
.controls label { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 0.4em; max-width: 100%; }
.controls select, .controls button {
  all: initial; box-sizing: border-box; font: inherit; color: var(--text); background: var(--paper);
  border: 1px solid #8c95a3; border-radius: 4px; padding: 0.25em 0.6em; cursor: pointer; max-width: 100%;
}
.controls select:focus-visible, .controls button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }

.message {
  margin: 0 0 0.75em; padding: 0.6em 0.9em; font-size: 0.95em;
  color: var(--text); background: var(--attention-alert, #fff4e5);
  border: 1px solid var(--attention-alert-rule, #b35c00); border-left-width: 5px; border-radius: 4px;
}
.message[hidden] { display: none; }
.message strong { font-weight: 600; }
.edit-message { font-size: 0.85em; }

/* Pencil mode (the practice attribute): a blank's sign and words say the verdict, never colour. */
.practice { margin: 0 0 1em; font-size: 0.9em; }
.practice p { margin: 0 0 0.4em; }
td.blank { text-align: start; vertical-align: top; background: var(--tint); outline: 2px dashed #8c95a3; outline-offset: -3px; }
.blank-box { display: grid; gap: 0.25em; min-width: 9.5em; max-width: 16em; white-space: normal; font-weight: 400; }
.blank-row { display: flex; flex-wrap: wrap; gap: 0.25em; align-items: center; }
.blank-answer {
  width: 6.5em; font: inherit; color: var(--text); background: var(--paper);
  border: 1px solid #8c95a3; border-radius: 3px; padding: 0.1em 0.25em;
}
.blank-answer[aria-invalid="true"] { border: 2px solid var(--attention-alert-rule, #b35c00); }
.blank-check, .blank-hint { font: inherit; font-size: 0.85em; padding: 0.1em 0.4em; }
.blank-verdict, .blank-hints { margin: 0; font-size: 0.85em; }
.blank-hints { padding-left: 1.3em; color: var(--text); }
.blank-sign, .blank-solved-mark { font-weight: 700; }
.computing { color: var(--muted); font-style: italic; }
`;

/**
 * A function that gives a shadow root `css`: one CSSStyleSheet per document, adopted by every
 * shadow root in it, either as the root's only sheet (`first`) or after the sheets it already
 * has. Where constructable stylesheets are missing (older browsers), a <style> element is the
 * fallback, put first or last alike; it would need `style-src 'unsafe-inline'`, which is why it
 * is only the fallback.
 * @param {string} css
 * @param {{first?: boolean}} [options]
 * @returns {(root: ShadowRoot) => void}
 */
export function styleAdopter(css, { first = false } = {}) {
  const sheets = new WeakMap();
  return (root) => {
    const doc = root.ownerDocument;
    const view = doc.defaultView ?? globalThis;
    if ('adoptedStyleSheets' in root && typeof view.CSSStyleSheet === 'function') {
      let sheet = sheets.get(doc);
      if (!sheet) {
        sheet = new view.CSSStyleSheet();
        sheet.replaceSync(css);
        sheets.set(doc, sheet);
      }
      root.adoptedStyleSheets = first ? [sheet] : [...root.adoptedStyleSheets, sheet];
      return;
    }
    const style = doc.createElement('style');
    style.textContent = css;
    if (first) root.prepend(style);
    else root.append(style);
  };
}

/**
 * Gives `root` the elements' stylesheet, as its first sheet.
 * @type {(root: ShadowRoot) => void}
 */
export const adoptStyles = styleAdopter(CSS, { first: true });
