// The sequel elements' own rules, adopted after the elements' shared stylesheet
// (element-styles.js) in each shadow root: groups of tables, the tile map of FlashAttention,
// the cells that show a working, number fields in the controls. Colours come from the same
// --attention-* custom properties, so a host page themes both alike (dark mode included).

import { styleAdopter } from '../element-styles.js';

const CSS = `
.intro { margin: 0 0 0.9em; }
.note { color: var(--muted); font-size: 0.9em; }
.part { margin: 0 0 1.4em; }
.part:last-child { margin-bottom: 0; }
.part-title { margin: 0 0 0.5em; font-size: 1em; font-weight: 600; }
.tables { display: flex; flex-wrap: wrap; gap: 0.9em 1.6em; align-items: flex-start; margin: 0 0 0.6em; }
.tables > * { min-width: 0; max-width: 100%; }
.head-group {
  margin: 0 0 1em; padding: 0.6em 0.8em 0.2em; border: 1px solid var(--rule); border-radius: 6px;
}
.head-group > .part-title { margin-bottom: 0.4em; }
.badge {
  display: inline-block; margin-left: 0.4em; padding: 0 0.45em; border-radius: 999px; font-size: 0.8em;
  font-weight: 600; color: var(--paper); background: var(--accent); vertical-align: 0.1em;
}

table.figures tbody th { white-space: normal; min-width: 10ch; max-width: 22ch; }
table.matrix td.text { text-align: left; white-space: normal; min-width: 12ch; }
table.matrix td.num .unit { display: block; color: var(--muted); font-size: 0.85em; font-weight: 400; }
table.matrix caption { white-space: normal; }
table.matrix td.has-working { cursor: help; }
table.matrix td.has-working .value {
  text-decoration: underline dotted; text-decoration-color: var(--muted); text-underline-offset: 0.25em;
}
table.matrix td.has-working:focus { outline: none; }
table.matrix td.has-working:focus-visible, table.matrix td.selected-cell {
  outline: 3px solid var(--accent); outline-offset: -3px;
}
table.matrix .yes { color: var(--attention-ok, #1d6b3a); font-weight: 600; }
table.matrix .no { color: var(--attention-alert-text, #8a3b00); font-weight: 600; }
table.matrix td.skipped, table.tile-map td.skipped {
  background-color: #f1f2f4; background-image: var(--hatch); color: #4a505c;
}
table.matrix td.skipped .value { padding: 0 0.2em; background: #f1f2f4; border-radius: 2px; }
table.tile-map td.num { min-width: 6ch; text-align: center; }
table.tile-map td.tile-even { background: var(--tint); }
table.tile-map td.hidden-cell { color: var(--muted); }

.cell-working { margin: 0.2em 0 0.9em; }
.cell-working-hint { color: var(--muted); font-size: 0.85em; font-style: italic; margin: 0; }
.working-line .term { white-space: normal; }

.step-card { margin: 0 0 1em; padding: 0.6em 0.8em 0.2em; border: 1px solid var(--rule); border-radius: 6px; }
.step-card.skipped-step { border-style: dashed; background: var(--tint); }
.step-card h4 { margin: 0 0 0.5em; font-size: 1em; }
.verdict { padding: 0.5em 0.8em; border-left: 4px solid var(--attention-ok, #1d6b3a); background: var(--tint); }
.verdict.differs { border-left-color: var(--attention-alert-rule, #b35c00); }

details { margin: 0 0 0.9em; }
summary { cursor: pointer; font-weight: 600; }
summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
details[open] > summary { margin-bottom: 0.5em; }

.controls fieldset { all: unset; display: contents; }
.controls input {
  all: initial; box-sizing: border-box; font: inherit; color: var(--text); background: var(--paper);
  border: 1px solid #8c95a3; border-radius: 4px; padding: 0.25em 0.4em; width: 9ch; max-width: 100%;
  font-variant-numeric: tabular-nums;
}
.controls input.wide { width: 15ch; }
.controls input[type="checkbox"] { all: revert; accent-color: var(--accent); margin: 0; }
.controls input:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.controls input[aria-invalid="true"] { border-color: var(--attention-alert-rule, #b35c00); background: var(--attention-alert, #fff4e5); }
.controls .field-message {
  flex-basis: 100%; margin: -0.3em 0 0.2em; padding: 0.2em 0.5em; font-size: 0.9em;
  color: var(--attention-alert-text, #8a3b00); border-left: 3px solid var(--attention-alert-rule, #b35c00);
}
/* <attention-layer-inputs>: the tokens take a longer field, X's sixteen columns narrower cells. */
.layer-fields input.wide { width: 24ch; }
.controls button:disabled { cursor: default; color: var(--muted); }
table[data-table="x"] th, table[data-table="x"] td.num { padding: 0.15em 0.25em; }
table[data-table="x"] tbody th { padding-right: 0.6em; }
table[data-table="x"] .cell-input { width: 6ch; padding: 0.2em 0.3em; }
.controls .control-note { flex-basis: 100%; color: var(--muted); font-size: 0.9em; margin: 0; }
.citations { margin: 0.4em 0 0; padding-left: 1.2em; font-size: 0.9em; }
.citations li { margin: 0 0 0.35em; }
a { color: var(--accent); overflow-wrap: anywhere; }

/* uPlot's own rules (uPlot.min.css), the ones this plot uses. */
.uplot, .uplot *, .uplot *::before, .uplot *::after { box-sizing: border-box; }
.uplot { font-family: inherit; line-height: 1.5; width: min-content; }
.u-wrap { position: relative; user-select: none; }
.u-over, .u-under { position: absolute; }
.u-under { overflow: hidden; }
.uplot canvas { display: block; position: relative; width: 100%; height: 100%; }
.u-axis { position: absolute; }
.u-select { background: rgba(0, 0, 0, 0.07); position: absolute; pointer-events: none; }
.u-axis.u-off, .u-select.u-off, .u-cursor-x.u-off, .u-cursor-y.u-off, .u-cursor-pt.u-off { display: none; }
.curve { margin: 0 0 0.8em; max-width: 100%; overflow-x: auto; }
/* The plot lies on the page: its axes take the page's text colour, its lines a palette for a light or dark page. */
.curve-plot { background: transparent; border-radius: 4px; }
.check-choices { display: inline-flex; flex-wrap: wrap; gap: 0.2em 0.9em; }
.check-choices label { display: inline-flex; gap: 0.3em; align-items: center; white-space: nowrap; }
.curve-key { display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; margin: 0.4em 0; padding: 0; list-style: none; font-size: 0.9em; }
.curve-key .swatch { display: inline-block; width: 1.6em; margin-right: 0.4em; border-top: 3px solid; vertical-align: middle; }
.crossings { margin: 0 0 0.8em; padding-left: 1.2em; }
a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
`;

/**
 * Adds the sequel's sheet to a shadow root's adopted stylesheets (after the shared one), or,
 * where constructable stylesheets are missing, a <style> element.
 * @type {(root: ShadowRoot) => void}
 */
export const adoptSequelStyles = styleAdopter(CSS);
