// <attention-heads>'s own rules, adopted after the elements' shared stylesheet
// (element-styles.js): the head cards side by side, the disclosures of the weight matrices and
// each table's "Copy table" menu. Colours come from the same --attention-* custom properties,
// so a host page themes it as it themes the other elements, dark mode included.

import { styleAdopter } from './element-styles.js';

const CSS = `
.heads-table { margin: 0 0 1em; }
.table-block > .table-scroll { margin-bottom: 0.3em; }

/* Each card is as wide as its tables and the cards wrap: a fixed column narrower than a
   head's weights table would cut it off. */
.heads { display: flex; flex-wrap: wrap; gap: 0.5em 1.25em; }
.head-card { flex: 1 1 auto; min-width: 0; max-width: 100%; }
.head-card h3 { margin: 0.5em 0 0.5em; font-size: 1.05em; font-weight: 600; }

details { margin: 0 0 0.75em; }
summary { cursor: pointer; color: var(--accent); }
summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.weights-disclosure > summary { margin-bottom: 0.4em; }

table.navigable td.num:focus-visible { outline: 3px solid var(--accent); outline-offset: -3px; }
/* The ramp's light bands keep dark text whatever the page's text colour (a dark page's light
   text on them would not be read); its dark bands have white text already. */
.shade-0, .shade-1, .shade-2 { color: #1d2330; }

.table-tools { margin: 0; font-size: 0.85em; }
.table-tools summary { display: inline-block; text-decoration: underline; text-underline-offset: 0.15em; }
.table-tools-formats { display: inline-flex; flex-wrap: wrap; gap: 0.35em; margin: 0.3em 0.5em 0 0; }
.table-tools button {
  all: initial; box-sizing: border-box; font: inherit; color: var(--text); background: var(--paper);
  border: 1px solid #8c95a3; border-radius: 4px; padding: 0.15em 0.55em; cursor: pointer;
}
.table-tools button:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.table-tools-status { color: var(--muted); }
.copy-fallback { display: grid; gap: 0.25em; margin-top: 0.4em; }
.copy-fallback textarea { width: 100%; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.9em; }
`;

/**
 * Adds the heads' sheet to a shadow root (after the shared one).
 * @type {(root: ShadowRoot) => void}
 */
export const adoptHeadsStyles = styleAdopter(CSS);
