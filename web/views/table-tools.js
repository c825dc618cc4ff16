// Taking things away from the page: any table copied as Markdown, CSV or LaTeX, and the weight
// grid and the arrows view downloaded as SVG or PNG. Everything is made in the browser from
// what is on screen; nothing is sent anywhere.

import { element } from './page-slots.js';
import { svgToPng } from './svg-raster.js';
import { TABLE_FORMATS, tableData } from './table-export.js';

// Shows text a reader can copy by hand when the clipboard is not available to the page.
function showFallback(doc, tools, text, label) {
  tools.querySelector('.copy-fallback')?.remove();
  const wrapper = element(doc, 'label', 'copy-fallback');
  wrapper.append(element(doc, 'span', undefined, `${label}: the clipboard is not available here, so select the text and copy it.`));
  const area = doc.createElement('textarea');
  area.readOnly = true;
  area.rows = 6;
  area.value = text;
  wrapper.append(area);
  tools.append(wrapper);
  area.focus();
  area.select();
}

/**
 * A small "Copy table" menu (a disclosure, one Tab stop) with a button per format. The buttons
 * are made when the menu first opens: part one shows about thirty tables, and their closed
 * menus' buttons were one element in fifteen of the page, made and styled at every load.
 * @param {Document} doc
 * @param {HTMLTableElement} table
 */
export function tableTools(doc, table) {
  const tools = element(doc, 'details', 'table-tools');
  const summary = element(doc, 'summary', undefined, 'Copy table');
  const caption = table.caption?.textContent ?? 'table';
  summary.setAttribute('aria-label', `Copy the table \u201c${caption}\u201d`);
  tools.append(summary);
  const fill = () => {
    if (!tools.open || tools.querySelector('.table-tools-formats')) return;
    tools.append(...formatButtons(doc, table, tools));
  };
  tools.addEventListener('toggle', fill);
  return tools;
}

// The menu's content: a labelled group of a button per format, and the line that says what
// was copied.
function formatButtons(doc, table, tools) {
  const group = element(doc, 'div', 'table-tools-formats');
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', 'Copy as');
  const status = element(doc, 'span', 'table-tools-status');
  status.setAttribute('aria-live', 'polite');
  for (const { id, label, format } of TABLE_FORMATS) {
    const button = element(doc, 'button', 'copy-format', label);
    button.type = 'button';
    button.dataset.format = id;
    button.setAttribute('aria-label', `Copy as ${label}`);
    button.addEventListener('click', async () => {
      const text = format(tableData(table));
      try {
        await doc.defaultView.navigator.clipboard.writeText(text);
        status.textContent = `Copied as ${label}.`;
      } catch {
        status.textContent = '';
        showFallback(doc, tools, text, label);
      }
    });
    group.append(button);
  }
  return [group, status];
}

function download(doc, blob, fileName) {
  const url = URL.createObjectURL(blob);
  const link = element(doc, 'a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  doc.body.append(link);
  link.click();
  link.remove();
  // The download has started by the next task; the URL is no longer needed after it.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * "Download SVG" and "Download PNG" buttons for a picture made on demand.
 * @param {Document} doc
 * @param {{fileName: string, what: string, makeSvg: () => string}} picture
 *        fileName without extension; what the picture is, for the buttons' labels
 */
export function downloadButtons(doc, { fileName, what, makeSvg }) {
  const group = element(doc, 'div', 'download-buttons');
  group.setAttribute('role', 'group');
  group.setAttribute('aria-label', `Download the ${what}`);
  const status = element(doc, 'span', 'download-status');
  status.setAttribute('aria-live', 'polite');
  const button = (label, kind, run) => {
    const node = element(doc, 'button', 'download', label);
    node.type = 'button';
    node.dataset.download = kind;
    node.setAttribute('aria-label', `Download the ${what} as ${kind.toUpperCase()}`);
    node.addEventListener('click', async () => {
      try {
        await run();
        status.textContent = '';
      } catch (error) {
        status.textContent = `The ${kind.toUpperCase()} could not be made: ${error?.message ?? error}`;
      }
    });
    return node;
  };
  group.append(
    button('Download SVG', 'svg', () => {
      download(doc, new Blob([makeSvg()], { type: 'image/svg+xml' }), `${fileName}.svg`);
    }),
    button('Download PNG', 'png', async () => {
      download(doc, await svgToPng(makeSvg()), `${fileName}.png`);
    }),
    status,
  );
  return group;
}
