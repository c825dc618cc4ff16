// <attention-worksheet>'s own rules, adopted after the elements' shared stylesheet
// (element-styles.js): the blanks as boxes with room to write, the steps and the answer key,
// and the print: black on white, borders that survive a black-and-white printer, no table cut
// in two by a page break, every table at full width (no scrolling region on paper). Colours
// on screen come from the same --attention-* custom properties as the other elements, so a
// host page themes it alike (dark mode included). A box to write in is a "write-in", not a
// "blank": the shared sheet styles the interactive blank (an input with its buttons) by that name.

import { styleAdopter } from '../element-styles.js';

const CSS = `
.worksheet { max-width: 60em; }
.worksheet-header { margin: 0 0 1em; }
.worksheet-kind {
  margin: 0; font-size: 0.8em; font-weight: 600; letter-spacing: 0.06em; text-transform: uppercase;
  color: var(--muted);
}
.worksheet-title { margin: 0.1em 0 0.3em; font-size: 1.3em; line-height: 1.25; }
.worksheet-meta { color: var(--muted); }
.worksheet-step { margin: 0 0 1.4em; }
.worksheet-step h3 { margin: 0 0 0.35em; font-size: 1.05em; }
.worksheet-step .step-label { color: var(--muted); font-weight: 600; margin-right: 0.3em; }
.instruction { max-width: 42em; }
.worksheet-tables { display: flex; flex-wrap: wrap; gap: 0.8em 1.6em; align-items: flex-start; }
.worksheet-tables > * { min-width: 0; max-width: 100%; }

table.worksheet-table td.write-in { padding: 0.2em 0.3em; }
.write-in-box {
  position: relative; display: inline-block; box-sizing: border-box;
  min-width: 9ch; min-height: 2.2em; padding: 0.75em 0.35em 0.15em;
  border: 1.5px solid var(--text); border-radius: 2px; background: var(--paper); text-align: right;
}
.write-in-number {
  position: absolute; top: 0.1em; left: 0.3em; font-size: 0.7em; line-height: 1; color: var(--muted);
}
.answered .write-in-box { border-style: dashed; }
.answered .value { font-weight: 700; }

.answer-key {
  margin: 0.6em 0 0; padding: 0.5em 0.8em 0.5em 2.6em; font-size: 0.92em;
  border-left: 3px solid var(--accent); background: var(--tint); font-variant-numeric: tabular-nums;
}
.answer { margin: 0 0 0.45em; }
.answer-line { margin: 0; }
.answer-id { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.92em; }
.working-step { margin: 0; padding-left: 1.2em; color: var(--text); }

@media print {
  .frame {
    --text: #000000; --paper: #ffffff; --muted: #333333; --rule: #555555; --tint: #ffffff; --accent: #000000;
    color: #000000; background: #ffffff; font-size: 10pt;
  }
  .worksheet { max-width: none; }
  /* Static on paper: a positioned region is painted after the prose around it, which puts
     its text out of reading order in the PDF (a reader copying or a screen reader meets it so). */
  .table-scroll { overflow: visible; position: static; }
  table.matrix { break-inside: avoid; }
  table.matrix td, table.matrix th { padding: 0.25em 0.5em; }
  table.matrix td.masked, table.matrix td.masked .value { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  .worksheet-step h3, .instruction { break-after: avoid; break-inside: avoid; }
  .write-in-box { border: 1.5pt solid #000000; min-width: 10ch; min-height: 2.6em; }
  .answer-key { border-left: 2pt solid #000000; background: none; }
  .answer { break-inside: avoid; }
}
`;

/** Gives a shadow root the worksheet's rules, after the elements' shared sheet. */
export const adoptWorksheetStyles = styleAdopter(CSS);
