// The training elements' own rules, adopted after the elements' shared stylesheet
// (element-styles.js) in each shadow root: the trainer's controls, the loss curve (with the
// rules uPlot's layout needs, from its uPlot.min.css, since a strict CSP allows no <style> and
// uPlot's own sheet cannot reach into a shadow root), the shaded weight matrices and the grid.
// Colours come from the same --attention-* custom properties, so dark mode follows the host.

import { styleAdopter } from '../element-styles.js';

// uPlot 1.6.32's layout rules (its legend is not used: the element writes its own).
const UPLOT_CSS = `
.uplot, .uplot *, .uplot *::before, .uplot *::after { box-sizing: border-box; }
.uplot { line-height: 1.5; width: min-content; }
.u-wrap { position: relative; user-select: none; }
.u-over, .u-under { position: absolute; }
.u-under { overflow: hidden; }
.uplot canvas { display: block; position: relative; width: 100%; height: 100%; }
.u-axis { position: absolute; }
.u-select { background: rgba(0, 0, 0, 0.07); position: absolute; pointer-events: none; }
.u-cursor-x, .u-cursor-y { position: absolute; left: 0; top: 0; pointer-events: none; will-change: transform; }
.u-hz .u-cursor-x, .u-vt .u-cursor-y { height: 100%; border-right: 1px dashed #607d8b; }
.u-hz .u-cursor-y, .u-vt .u-cursor-x { width: 100%; border-bottom: 1px dashed #607d8b; }
.u-cursor-pt { position: absolute; top: 0; left: 0; border-radius: 50%; border: 0 solid; pointer-events: none; will-change: transform; background-clip: padding-box !important; }
.u-axis.u-off, .u-select.u-off, .u-cursor-x.u-off, .u-cursor-y.u-off, .u-cursor-pt.u-off { display: none; }
`;

const CSS = `
.controls { display: flex; flex-wrap: wrap; gap: 0.6em 1em; align-items: center; margin: 0 0 0.8em; }
.buttons { display: flex; flex-wrap: wrap; gap: 0.5em; }
button {
  all: initial; box-sizing: border-box; font: inherit; cursor: pointer; color: var(--paper);
  background: var(--accent); border: 1px solid var(--accent); border-radius: 4px;
  padding: 0.3em 0.9em; min-height: 2em; min-width: 44px; text-align: center;
}
button.secondary { color: var(--accent); background: var(--paper); }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
button[disabled] { cursor: default; opacity: 0.6; }
label { display: inline-flex; flex-wrap: wrap; gap: 0.3em; align-items: center; }
input, select {
  all: initial; box-sizing: border-box; font: inherit; color: var(--text); background: var(--paper);
  border: 1px solid #8c95a3; border-radius: 4px; padding: 0.25em 0.4em; min-height: 2em; max-width: 100%;
}
input.rate { width: 9ch; }
input.sentence { width: 32ch; }
input[type="range"] { all: revert; width: 100%; accent-color: var(--accent); min-height: 24px; }
input[aria-invalid="true"] { border-color: var(--attention-alert-rule, #b35c00); background: var(--attention-alert, #fff4e5); }
.scrub { display: flex; flex-direction: column; align-items: stretch; width: 100%; }
.status { margin: 0 0 0.6em; font-variant-numeric: tabular-nums; }
.message { margin: 0 0 0.8em; padding: 0.5em 0.8em; border-left: 4px solid var(--attention-alert-rule, #b35c00); background: var(--attention-alert, #fff4e5); color: var(--text); }
.vocabulary { margin: 0.4em 0 0; }
.vocabulary ul { display: flex; flex-wrap: wrap; gap: 0.2em 0.8em; margin: 0.3em 0 0; padding: 0; list-style: none; }
.note { color: var(--muted); font-size: 0.9em; }

.curve { position: relative; width: 100%; min-height: 220px; }
.legend { display: flex; flex-wrap: wrap; gap: 0.2em 1.2em; margin: 0.4em 0 0; padding: 0; list-style: none; font-size: 0.9em; }
.legend .swatch { display: inline-block; width: 1.6em; height: 0; border-top: 3px solid currentColor; vertical-align: middle; margin-right: 0.35em; }
.legend .dashed { border-top-style: dashed; }
.curve-summary { margin: 0.4em 0 0; font-variant-numeric: tabular-nums; }

.matrices { display: flex; flex-wrap: wrap; gap: 1em 1.4em; }
figure.matrix { margin: 0; }
figure.matrix figcaption { font-weight: 600; margin: 0 0 0.3em; }
canvas.weights { display: block; width: 144px; height: 144px; image-rendering: pixelated; border: 1px solid var(--rule); }
.scale { display: flex; justify-content: space-between; font-size: 0.8em; color: var(--muted); width: 144px; }

.scroll { overflow-x: auto; max-width: 100%; }
table.weights-grid { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.9em; }
table.weights-grid th, table.weights-grid td { padding: 0.25em 0.4em; border: 1px solid var(--rule); text-align: right; }
table.weights-grid thead th { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; font-weight: 600; }
table.weights-grid tbody th { text-align: left; font-weight: 600; white-space: nowrap; }
/* Light shades carry dark text and dark shades white text, whatever the page's text colour. */
table.weights-grid td.shade-0, table.weights-grid td.shade-1, table.weights-grid td.shade-2 { color: #1d2330; }
table.weights-grid td.shade-3, table.weights-grid td.shade-4 { color: #fff; }
table.weights-grid td.masked { background-color: var(--tint); color: var(--muted); }
table.weights-grid td.largest { outline: 2px solid var(--accent); outline-offset: -2px; }
.head-block { margin: 0 0 1em; }
.head-block h3, .head-block h4 { margin: 0 0 0.4em; font-size: 1em; }
.report li { margin: 0 0 0.4em; }
`;

/** @type {(root: ShadowRoot) => void} */
export const adoptTrainingStyles = styleAdopter(UPLOT_CSS + CSS);
