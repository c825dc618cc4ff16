// A multi-head layer as tables: the token vectors x, one card per head (its W_Q, W_K, W_V and
// Q, K, V in disclosures built when first opened, its weights grid, its out), the heads'
// outputs side by side, W_O (a disclosure) and the layer's output. Every number comes from the
// core's multiHead() answer; this only lays it out. Shown again for a layer of the same shape,
// each table on screen is patched in place (live-table.js), so focus and scrolling stay.

import { DECIMALS, counted, fixed } from './format.js';
import { element } from './page-slots.js';
import { presentTable } from './table-block.js';
import { tableView } from './live-table.js';
import { componentLabels, describeWeight, weightsTable } from './step-tables.js';

// A matrix as a table spec, labelled like the walkthrough's tables.
function matrixSpec(matrix, { name, caption, rowLabels, columnLabels, corner = 'token', decimals = DECIMALS.matrix }) {
  return { matrix, options: { name, caption, corner, rowLabels, columnLabels, format: fixed(decimals) } };
}

// A box holding one table that stays on screen across layers.
function tableHolder(doc, { describe } = {}) {
  const box = element(doc, 'div', 'heads-table');
  const view = tableView(doc, {
    describe,
    present: (table) => {
      table.setAttribute('part', 'table');
      table.caption?.setAttribute('part', 'caption');
      return [presentTable(doc, table, { describe })];
    },
  });
  return {
    box,
    show(spec) {
      const nodes = view.show(spec, { onScreen: view.table !== null && box.contains(view.table) });
      if (nodes) box.replaceChildren(...nodes);
      return box;
    },
  };
}

// A disclosure whose tables are built the first time it opens (the weight matrices are there
// for whoever wants them, without every reader's page and every redraw carrying them), and
// kept up to date once built. `specs(layer)` gives its tables' specs.
function lazyDisclosure(doc, className, specs) {
  const details = element(doc, 'details', `weights-disclosure ${className}`);
  const summary = element(doc, 'summary');
  details.append(summary);
  let holders = null;
  let layer = null;
  const fill = () => {
    const wanted = specs(layer);
    holders ??= wanted.map(() => tableHolder(doc));
    holders.forEach((holder, n) => holder.show(wanted[n]));
  };
  details.addEventListener('toggle', () => {
    if (!details.open || holders) return;
    fill();
    details.append(...holders.map((holder) => holder.box));
  });
  return {
    details,
    show(nextLayer, label) {
      layer = nextLayer;
      if (summary.textContent !== label) summary.textContent = label;
      if (holders) fill();
      return details;
    },
  };
}

function headCard(doc, number) {
  const card = element(doc, 'section', 'head-card');
  const heading = element(doc, 'h3', undefined, `Head ${number}`);
  heading.id = `head-${number}-heading`;
  card.setAttribute('aria-labelledby', heading.id);
  const head = (layer) => layer.heads[number - 1];
  const shape = (layer) => ({ tokens: layer.tokens, dModel: layer.d_model, headDim: layer.head_dim });
  const projections = lazyDisclosure(doc, 'head-weights', (layer) => {
    const { dModel, headDim } = shape(layer);
    return ['q', 'k', 'v'].map((letter) => matrixSpec(head(layer)[`w_${letter}`], {
      name: `heads-${number}-w${letter}`,
      caption: `Head ${number} \u00b7 W_${letter.toUpperCase()} (${dModel} \u00d7 ${headDim}, seeded)`,
      rowLabels: componentLabels('x', dModel), columnLabels: componentLabels(letter, headDim), corner: 'from x \u2193',
    }));
  });
  const projected = lazyDisclosure(doc, 'head-qkv', (layer) => {
    const { tokens, headDim } = shape(layer);
    return ['q', 'k', 'v'].map((letter) => matrixSpec(head(layer).trace[letter], {
      name: `heads-${number}-${letter}`,
      caption: `Head ${number} \u00b7 ${letter.toUpperCase()} = x \u00b7 W_${letter.toUpperCase()}`,
      rowLabels: tokens, columnLabels: componentLabels(letter, headDim),
    }));
  });
  const weights = tableHolder(doc, { describe: describeWeight });
  const out = tableHolder(doc);
  card.append(heading, projections.details, projected.details, weights.box, out.box);
  return {
    card,
    show(layer) {
      const { trace } = head(layer);
      projections.show(layer, `W_Q, W_K and W_V of head ${number}`);
      projected.show(layer, `Q, K and V of head ${number}`);
      weights.show(weightsTable(trace, {
        name: `heads-${number}-weights`, caption: `Head ${number} \u00b7 weights`, className: 'grid', shade: true,
      }));
      out.show(matrixSpec(trace.out, {
        name: `heads-${number}-out`,
        caption: `Head ${number} \u00b7 out (${counted(layer.head_dim, 'number', 'numbers')} per token)`,
        rowLabels: layer.tokens, columnLabels: componentLabels('o', layer.head_dim), decimals: DECIMALS.softmax,
      }));
      return card;
    },
  };
}

// Column c of the concatenation is component c mod head_dim of head c div head_dim + 1.
const concatLabels = (layer) => layer.heads.flatMap((_, h) => componentLabels(`h${h + 1}.o`, layer.head_dim));

/**
 * The view of a multi-head layer, kept across layers.
 * @param {Document} doc
 * @returns {{show: (layer: object) => Node[]}}  show: the nodes that show `layer` (the same
 *          nodes, patched, while the layer keeps its shape)
 */
export function headsView(doc) {
  const x = tableHolder(doc);
  const cardsBox = element(doc, 'div', 'heads');
  let cards = [];
  const concat = tableHolder(doc);
  const wo = lazyDisclosure(doc, 'heads-wo', (layer) => [matrixSpec(layer.w_o, {
    name: 'heads-wo', caption: layer.n_heads === 1
      ? 'W_O \u00b7 maps the one head\u2019s slice back into the model\u2019s vector'
      : `W_O \u00b7 mixes the ${layer.n_heads} heads\u2019 slices back into one vector`,
    rowLabels: concatLabels(layer), columnLabels: componentLabels('y', layer.d_model), corner: 'from \u2193',
  })]);
  const out = tableHolder(doc);
  return {
    show(layer) {
      const { tokens, d_model: dModel } = layer;
      x.show(matrixSpec(layer.x, {
        name: 'heads-x', caption: `x \u00b7 the token vectors (seeded), ${counted(dModel, 'number', 'numbers')} each`,
        rowLabels: tokens, columnLabels: componentLabels('x', dModel),
      }));
      if (cards.length !== layer.heads.length) {
        cards = layer.heads.map((_, h) => headCard(doc, h + 1));
        cardsBox.replaceChildren(...cards.map((card) => card.card));
      }
      for (const card of cards) card.show(layer);
      concat.show(matrixSpec(layer.concat, {
        name: 'heads-concat', caption: 'The heads\u2019 outputs side by side (the concatenation)',
        rowLabels: tokens, columnLabels: concatLabels(layer), decimals: DECIMALS.softmax,
      }));
      wo.show(layer, `W_O (${dModel} \u00d7 ${dModel}, seeded)`);
      out.show(matrixSpec(layer.out, {
        name: 'heads-out', caption: 'The layer\u2019s output: concatenation \u00b7 W_O',
        rowLabels: tokens, columnLabels: componentLabels('y', dModel), decimals: DECIMALS.softmax,
      }));
      return [x.box, cardsBox, concat.box, wo.details, out.box];
    },
  };
}
