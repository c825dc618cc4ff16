// Where part one's Q, K and V come from: the article's numbers, or the trained head of part
// three on the reader's tokens. Choosing the trained head trains the default run (the same
// seed and steps as part three's default, so the same weights) a few steps per animation frame,
// then hands the head's Q, K and V for the reader's tokens to the session: every table and
// every cell's working below then shows the trained head. Tokens outside the trained model's
// vocabulary are refused, with the vocabulary, and nothing changes.

import { variantRadios } from './explore-controls.js';
import { articleState } from '../web/state/page-state.js';
import { element } from '../web/views/page-slots.js';

export const SOURCE_LABELS = Object.freeze({
  article: 'the article\u2019s numbers',
  trained: 'the trained head on my sentence',
});

/** Milliseconds of training steps per animation frame. */
const BUDGET = 12;

export function createSourceChoice(doc, session) {
  let trainer = null;
  let trained = false;
  let frame = 0;
  const progress = element(doc, 'p', 'control-message');
  progress.setAttribute('role', 'status');
  progress.hidden = true;

  // The trained head's Q, K and V for the reader's tokens, as the session's next state.
  const useTrained = () => {
    const layer = trainer.attend(session.state.tokens);
    const { q, k, v } = layer.heads[0].trace;
    const values = articleState({ tokens: layer.tokens, q, k, v });
    const problem = session.propose({ ...session.state, q: values.q, k: values.k, v: values.v });
    progress.textContent = problem ?? `Q, K and V now come from the trained head (after ${trainer.state().step} steps of training), on your tokens.`;
    progress.hidden = false;
  };

  const train = () => {
    const target = trainer.state().default_steps;
    const slice = () => {
      const start = performance.now();
      let step = 0;
      do {
        ({ step } = trainer.step(1));
      } while (step < target && performance.now() - start < BUDGET);
      progress.textContent = `Training the head: step ${step} of ${target}\u2026`;
      if (step < target) {
        frame = requestAnimationFrame(slice);
        return;
      }
      trained = true;
      useTrained();
    };
    progress.hidden = false;
    frame = requestAnimationFrame(slice);
  };

  const radios = variantRadios(doc, {
    legend: 'Where Q, K and V come from',
    kind: 'source',
    values: Object.keys(SOURCE_LABELS),
    labels: SOURCE_LABELS,
    choose(value) {
      cancelAnimationFrame(frame);
      if (value === 'article') {
        progress.hidden = true;
        return session.propose(session.articleState);
      }
      trainer ??= session.attention.trainer();
      try {
        trainer.attend(session.state.tokens);
      } catch (error) {
        // Refused: the article's numbers stay, and the reader sees the words the model knows.
        queueMicrotask(() => radios.sync('article'));
        const words = trainer.state().vocabulary.join(', ');
        return `${String(error?.message ?? error).replace(/^tokens/u, 'Your tokens')}. The trained head knows these words: ${words}. Nothing was changed.`;
      }
      if (trained) useTrained();
      else train();
      return null;
    },
  });
  radios.sync('article');
  radios.element.append(progress);
  return radios;
}
