// Draws a worksheet's layout (web/practice/worksheet.js) as HTML: headings, the inputs, each
// step's instruction and tables, and in the answer key each step's blanks with their values and
// working. Built with the `doc` it is given, text always as text; nothing computed here.

import { element } from '../../views/page-slots.js';
import { counted } from '../../views/format.js';
import { HIDDEN_NAME } from '../../views/blank-echoes.js';
import { renderScrollable, visuallyHidden } from '../../views/render-tables.js';
import { quotedToken } from '../../views/token-text.js';

function headerCell(doc, text, scope) {
  const cell = element(doc, 'th', undefined, text);
  cell.setAttribute('scope', scope);
  return cell;
}

// A blank: a box with its number, empty on the worksheet; filled with the value in the key.
function blankCell(doc, cell) {
  const td = element(doc, 'td', cell.answer === undefined ? 'num write-in' : 'num write-in answered');
  td.dataset.blank = String(cell.blank);
  td.dataset.cell = cell.id;
  const box = element(doc, 'span', 'write-in-box');
  box.append(element(doc, 'span', 'write-in-number', String(cell.blank)));
  if (cell.answer === undefined) {
    box.append(visuallyHidden(doc, ` blank ${cell.blank}, to work out`));
  } else {
    box.append(visuallyHidden(doc, ` blank ${cell.blank}: `), element(doc, 'span', 'value', cell.answer));
  }
  td.append(box);
  return td;
}

function valueCell(doc, cell) {
  const td = element(doc, 'td', cell.masked ? 'num masked' : 'num');
  td.append(element(doc, 'span', 'value', cell.text));
  if (cell.masked) td.append(visuallyHidden(doc, ' masked'));
  return td;
}

// A cell printing a blank's quantity again: "?", named as the page names its hidden places.
function echoCell(doc, cell) {
  const td = element(doc, 'td', 'num echo');
  td.dataset.echoOf = String(cell.echoOf);
  const sign = element(doc, 'span', 'value', cell.text);
  sign.setAttribute('aria-hidden', 'true');
  td.append(sign, visuallyHidden(doc, `${HIDDEN_NAME}: the answer of blank ${cell.echoOf}`));
  return td;
}

function drawCell(doc, cell) {
  if (cell.blank !== undefined) return blankCell(doc, cell);
  return cell.echoOf === undefined ? valueCell(doc, cell) : echoCell(doc, cell);
}

function drawRow(doc, row) {
  const tr = element(doc, 'tr');
  tr.append(headerCell(doc, row.label, 'row'), ...row.cells.map((cell) => drawCell(doc, cell)));
  return tr;
}

/** One table of the layout, in a scrolling region on a narrow screen (the print shows it whole). */
export function drawTable(doc, spec) {
  const table = element(doc, 'table', 'matrix worksheet-table');
  // Named apart from the walkthrough's tables (data-table="q"), which a page or a test may look
  // up by name through the open shadow roots.
  table.dataset.table = `worksheet-${spec.name}`;
  table.setAttribute('part', 'table');
  table.append(element(doc, 'caption', undefined, spec.caption));
  const head = element(doc, 'thead');
  const headRow = element(doc, 'tr');
  headRow.append(headerCell(doc, spec.corner, 'col'));
  headRow.firstChild.className = 'corner';
  for (const label of spec.columns) headRow.append(headerCell(doc, label, 'col'));
  head.append(headRow);
  const body = element(doc, 'tbody');
  body.append(...spec.rows.map((row) => drawRow(doc, row)));
  table.append(head, body);
  if (spec.footer) {
    const foot = element(doc, 'tfoot');
    foot.append(drawRow(doc, spec.footer));
    table.append(foot);
  }
  const region = renderScrollable(doc, table, spec.caption);
  region.classList.add('worksheet-region');
  return region;
}

function drawKey(doc, entries) {
  const list = element(doc, 'ol', 'answer-key');
  list.setAttribute('aria-label', 'Answers with the working');
  for (const entry of entries) {
    const item = element(doc, 'li', 'answer');
    item.value = entry.number;
    const line = element(doc, 'p', 'answer-line');
    line.append(element(doc, 'span', 'answer-id', `${entry.id} (${entry.table})`), ' = ',
      element(doc, 'strong', 'answer-value', entry.answer));
    item.append(line);
    for (const text of entry.working) item.append(element(doc, 'p', 'working-step', text));
    list.append(item);
  }
  return list;
}

function describeExercise(layout) {
  const parts = [];
  if (layout.exercise) parts.push(`Round ${layout.exercise.round}, seed ${layout.exercise.seed}, level ${layout.exercise.level}.`);
  parts.push(`${counted(layout.blankCount, 'blank', 'blanks')}.`);
  if (!layout.answers) parts.push('Write each answer in its box, with the decimals its table prints.');
  return parts.join(' ');
}

/**
 * The whole worksheet (or answer key) as one <article>.
 * @param {Document} doc
 * @param {ReturnType<import('../../practice/worksheet.js').worksheetLayout>} layout
 */
export function renderWorksheet(doc, layout) {
  const sheet = element(doc, 'article', layout.answers ? 'worksheet answer-sheet' : 'worksheet');
  sheet.setAttribute('part', 'worksheet');
  sheet.dataset.mode = layout.answers ? 'answers' : 'worksheet';
  const header = element(doc, 'header', 'worksheet-header');
  header.append(
    element(doc, 'p', 'worksheet-kind', layout.answers ? 'Answer key' : 'Worksheet'),
    element(doc, 'h2', 'worksheet-title', layout.title),
    element(doc, 'p', 'worksheet-meta', describeExercise(layout)),
  );
  const inputs = element(doc, 'section', 'worksheet-step inputs');
  const { tokens, mask, scale } = layout.inputs;
  inputs.append(
    element(doc, 'h3', undefined, 'The inputs'),
    element(doc, 'p', 'instruction', `Tokens: ${tokens.map((t) => quotedToken(t)).join(', ')}. Mask: ${mask}. Scale: ${scale}.`),
  );
  const inputTables = element(doc, 'div', 'worksheet-tables');
  inputTables.append(...layout.inputs.tables.map((spec) => drawTable(doc, spec)));
  inputs.append(inputTables);
  sheet.append(header, inputs);
  for (const step of layout.steps) {
    const section = element(doc, 'section', 'worksheet-step');
    section.dataset.step = String(step.number);
    const heading = element(doc, 'h3');
    heading.append(element(doc, 'span', 'step-label', `Step ${step.number}`), ` ${step.title}`);
    const tables = element(doc, 'div', 'worksheet-tables');
    tables.append(...step.tables.map((spec) => drawTable(doc, spec)));
    section.append(heading, element(doc, 'p', 'instruction', step.instruction), tables);
    if (step.key.length > 0) section.append(drawKey(doc, step.key));
    sheet.append(section);
  }
  return sheet;
}
