// Where part one's Q, K and V come from: the article's numbers, or the trained head of part
// three on the reader's tokens. Choosing the trained head asks web/api/trained-input.js, which
// trains part three's default run (the same seed and steps, so the same weights) once per page
// in the training worker, or where no worker starts in short slices, so the page never waits on
// a step; the status line follows its progress. The head's Q, K and V for the reader's tokens
// then go to the session: every table and every cell's working below shows the trained head.
// Tokens outside the trained model's vocabulary are refused, with the vocabulary, and nothing
// changes.

import { variantRadios } from '../web/views/variant-radios.js';
import { articleState } from '../web/state/page-state.js';
import { element } from '../web/views/page-slots.js';

// The trained head's module (and the training it starts) is fetched on the first choice of it,
// not with the page.
const trainedInput = () => import('../web/api/trained-input.js');

export const SOURCE_LABELS = Object.freeze({
  article: 'the article\u2019s numbers',
  trained: 'the trained head on my sentence',
});

const sameTokens = (a, b) => a.length === b.length && a.every((word, i) => word === b[i]);

/** What the reader reads when the trained model refuses their tokens. */
function refusalText(error) {
  const message = String(error?.message ?? error).replace(/^tokens/u, 'Your tokens');
  const known = error?.vocabulary ? ` The trained head knows these words: ${error.vocabulary.join(', ')}.` : '';
  return `${message}.${known} Nothing was changed.`;
}

export function createSourceChoice(doc, session) {
  let request = 0;  // the latest choice of the trained head; older answers are dropped
  const progress = element(doc, 'p', 'control-message');
  progress.setAttribute('role', 'status');
  progress.hidden = true;
  const say = (text) => {
    progress.textContent = text;
    progress.hidden = false;
  };

  // Asks for the trained head on the reader's tokens (again, if they changed while it trained),
  // then hands its Q, K and V to the session.
  async function useTrained(asked) {
    const tokens = session.state.tokens;
    const { describeTraining, trainedHeadInput } = await trainedInput();
    const { q, k, v, step } = await trainedHeadInput(tokens, {
      onProgress: (reached) => { if (asked === request) say(describeTraining(reached)); },
    });
    if (asked !== request) return;
    if (!sameTokens(tokens, session.state.tokens)) {
      await useTrained(asked);
      return;
    }
    const values = articleState({ tokens, q, k, v });
    const problem = session.propose({ ...session.state, q: values.q, k: values.k, v: values.v });
    say(problem ?? `Q, K and V now come from the trained head (after ${step} steps of training), on your tokens.`);
  }

  const radios = variantRadios(doc, {
    legend: 'Where Q, K and V come from',
    kind: 'source',
    values: Object.keys(SOURCE_LABELS),
    labels: SOURCE_LABELS,
    choose(value) {
      request += 1;
      if (value === 'article') {
        progress.hidden = true;
        return session.propose(session.articleState);
      }
      const asked = request;
      say('Checking your tokens against the trained head\u2019s vocabulary\u2026');
      useTrained(asked).catch((error) => {
        if (asked !== request) return;
        // Refused: the article's numbers stay, and the reader sees the words the model knows.
        progress.hidden = true;
        radios.sync('article');
        const message = radios.element.querySelector(':scope > .control-message');
        message.textContent = refusalText(error);
        message.hidden = false;
      });
      return null;
    },
  });
  radios.sync('article');
  // After the choice's own message, which says why a choice was refused.
  radios.element.append(progress);
  return radios;
}
