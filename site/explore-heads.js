// "More than one head", computed: a four-head layer of width d_model 16 over the reader's
// tokens. The core seeds the token vectors and every weight matrix, runs each head's full
// attention, lays the heads' outputs side by side and mixes them by W_O; the page shows each
// head's tables next to the others. The layer follows the tokens, the seed, the mask and the
// scale of the example above (not its Q, K and V cells: a head's Q, K and V are x · W here).

import { DECIMALS, fixed } from '../web/views/format.js';
import { LAYER_DEFAULTS } from '../web/state/variant-names.js';
import { componentLabels, element, fillSlot, fillText } from '../web/views/page-slots.js';
import { renderMatrixTable } from '../web/views/render-tables.js';
import { buildTable, presentTable } from '../web/views/table-block.js';
import { describeWeight, weightsTable } from '../web/views/step-tables.js';

/** The layer the article sketches. */
export const LAYER_SHAPE = Object.freeze({ d_model: LAYER_DEFAULTS.d_model, n_heads: LAYER_DEFAULTS.n_heads });


/** Whether the layer must be computed again after a change of state. */
export function layerInputChanged(previous, state) {
  return !previous || previous.seed !== state.seed || previous.mask !== state.mask ||
    previous.scale !== state.scale || previous.tokens.length !== state.tokens.length ||
    previous.tokens.some((token, i) => token !== state.tokens[i]);
}

function matrixTable(doc, matrix, { name, caption, rowLabels, columnLabels, corner = 'token', decimals = DECIMALS.matrix }) {
  return presentTable(doc, renderMatrixTable(doc, matrix, {
    name, caption, corner, rowLabels, columnLabels, format: fixed(decimals),
  }));
}

// A disclosure whose tables are built the first time it opens: the weight matrices are there
// for whoever wants them, without making every reader's page (and every redraw) carry them.
function disclosure(doc, summary, build) {
  const details = element(doc, 'details', 'weights-disclosure');
  details.append(element(doc, 'summary', undefined, summary));
  details.addEventListener('toggle', () => {
    if (details.open && details.childElementCount === 1) details.append(...build());
  });
  return details;
}

/**
 * @param {Document} doc
 * @param {object} attention  the core's API
 */
export function createHeads(doc, attention) {
  return {
    /** Computes the layer for the state's tokens, seed, mask and scale, and shows it. */
    render(state) {
      const layer = attention.multiHead({
        tokens: state.tokens, ...LAYER_SHAPE, seed: state.seed, mask: state.mask, scale: state.scale,
      });
      const { tokens, d_model: dModel, n_heads: nHeads, head_dim: headDim } = layer;
      fillText(doc, 'heads-sentence', tokens.join(' '));
      fillText(doc, 'heads-count', String(nHeads));
      fillText(doc, 'heads-d-model', String(dModel));
      fillText(doc, 'heads-head-dim', String(headDim));
      const inputLabels = componentLabels('x', dModel);

      fillSlot(doc, 'heads-x', matrixTable(doc, layer.x, {
        name: 'heads-x', caption: `x \u00b7 the token vectors (seeded), ${dModel} numbers each`,
        rowLabels: tokens, columnLabels: inputLabels,
      }));

      const cards = layer.heads.map((head, h) => {
        const number = h + 1;
        const card = element(doc, 'section', 'head-card');
        const heading = element(doc, 'h3', undefined, `Head ${number}`);
        heading.id = `head-${number}-heading`;
        card.setAttribute('aria-labelledby', heading.id);
        const projection = (letter, weights) => matrixTable(doc, weights, {
          name: `heads-${number}-w${letter}`,
          caption: `Head ${number} \u00b7 W_${letter.toUpperCase()} (${dModel} \u00d7 ${headDim}, seeded)`,
          rowLabels: inputLabels, columnLabels: componentLabels(letter, headDim), corner: 'from x \u2193',
        });
        const projected = (letter) => matrixTable(doc, head.trace[letter], {
          name: `heads-${number}-${letter}`,
          caption: `Head ${number} \u00b7 ${letter.toUpperCase()} = x \u00b7 W_${letter.toUpperCase()}`,
          rowLabels: tokens, columnLabels: componentLabels(letter, headDim),
        });
        card.append(
          heading,
          disclosure(doc, `W_Q, W_K and W_V of head ${number}`,
            () => [projection('q', head.w_q), projection('k', head.w_k), projection('v', head.w_v)]),
          disclosure(doc, `Q, K and V of head ${number}`, () => [projected('q'), projected('k'), projected('v')]),
          presentTable(doc, buildTable(doc, weightsTable(head.trace, {
            name: `heads-${number}-weights`,
            caption: `Head ${number} \u00b7 weights`,
            className: 'grid',
            shade: true,
          })), { describe: describeWeight }),
          matrixTable(doc, head.trace.out, {
            name: `heads-${number}-out`,
            caption: `Head ${number} \u00b7 out (${headDim} numbers per token)`,
            rowLabels: tokens, columnLabels: componentLabels('o', headDim), decimals: DECIMALS.softmax,
          }),
        );
        return card;
      });
      fillSlot(doc, 'heads-each', ...cards);

      // Column c of the concatenation is component c mod head_dim of head c div head_dim + 1.
      const concatLabels = layer.heads.flatMap((_, h) => componentLabels(`h${h + 1}.o`, headDim));
      fillSlot(doc, 'heads-concat', matrixTable(doc, layer.concat, {
        name: 'heads-concat', caption: 'The heads\u2019 outputs side by side (the concatenation)',
        rowLabels: tokens, columnLabels: concatLabels, decimals: DECIMALS.softmax,
      }));
      fillSlot(doc, 'heads-wo', disclosure(doc, `W_O (${dModel} \u00d7 ${dModel}, seeded)`, () => [matrixTable(doc, layer.w_o, {
        name: 'heads-wo', caption: `W_O \u00b7 mixes the ${nHeads} heads\u2019 slices back into one vector`,
        rowLabels: concatLabels, columnLabels: componentLabels('y', dModel), corner: 'from \u2193',
      })]));
      fillSlot(doc, 'heads-out', matrixTable(doc, layer.out, {
        name: 'heads-out', caption: 'The layer\u2019s output: concatenation \u00b7 W_O',
        rowLabels: tokens, columnLabels: componentLabels('y', dModel), decimals: DECIMALS.softmax,
      }));
    },
  };
}
