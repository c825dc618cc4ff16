// The explorer's controls: the tokens (rename, add, remove), head_dim, drawing new numbers,
// resetting to the article, and the mask and scale choices (which the FAQ repeats next to its
// answers). Every control goes through the session, so a refused change leaves the page as it
// was and says why next to the control.

import { element } from '../web/views/page-slots.js';
import { variantRadios } from '../web/views/variant-radios.js';
import {
  PAGE_LIMITS, headDimOf, withHeadDim, withMask, withScale, withTokenAdded,
  withStep, withTokenRemoved, withTokenRenamed, withValuesFromPool,
} from '../web/state/page-state.js';
import { quotedToken } from '../web/views/token-text.js';

// The variants of one kind as the core names and labels them (attention.vocabulary()).
const choicesOf = (terms) => ({
  values: terms.map((term) => term.name),
  labels: Object.fromEntries(terms.map((term) => [term.name, term.label])),
});

/** The mask and scale choices, bound to the session. */
export function maskRadios(doc, session, legend = 'Mask') {
  return variantRadios(doc, {
    legend, kind: 'mask', ...choicesOf(session.vocabulary.masks),
    choose: (mask) => session.propose(withMask(session.state, mask)),
  });
}
export function scaleRadios(doc, session, legend = 'Scale the scores') {
  return variantRadios(doc, {
    legend, kind: 'scale', ...choicesOf(session.vocabulary.scales),
    choose: (scale) => session.propose(withScale(session.state, scale)),
  });
}

function button(doc, className, text, onClick) {
  const node = element(doc, 'button', className, text);
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

/**
 * The toolbar above the Q, K and V tables.
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 * @param {{walkButton: HTMLElement}} parts  controls other modules own, placed in the toolbar
 */
export function createControls(doc, session, { walkButton }) {
  const root = element(doc, 'div', 'explore-controls');
  const message = element(doc, 'p', 'control-message');
  message.id = 'controls-message';
  message.setAttribute('aria-live', 'polite');
  message.hidden = true;
  const say = (text) => {
    message.textContent = text ?? '';
    message.hidden = !text;
  };
  const propose = (next, how) => {
    const problem = session.propose(next, how);
    say(problem);
    return problem;
  };

  // Tokens: one text field per token, each with a remove button, and an add button.
  const tokens = element(doc, 'fieldset', 'token-editor');
  tokens.append(element(doc, 'legend', undefined, 'Tokens'));
  const list = element(doc, 'ol', 'token-list');
  const add = button(doc, 'add-token', 'Add a token', () => propose(withTokenAdded(session.state, session.pool())));
  tokens.append(list, add);
  let renaming = { input: null, recorded: false };

  function tokenItem(index) {
    const item = element(doc, 'li', 'token-item');
    const input = element(doc, 'input', 'token-input');
    Object.assign(input, { type: 'text', spellcheck: false, autocomplete: 'off' });
    input.size = 8;
    input.dataset.token = String(index);
    input.addEventListener('input', () => {
      const history = renaming.input === input && renaming.recorded ? 'replace' : 'push';
      const problem = session.propose(withTokenRenamed(session.state, index, input.value), { history, origin: 'token' });
      if (problem) {
        input.setAttribute('aria-invalid', 'true');
        input.setAttribute('aria-describedby', message.id);
        say(`${problem.replace(/^tokens\[\d+\]: /u, `token ${index + 1}: `)}. The tables keep ${quotedToken(session.state.tokens[index])}.`);
        return;
      }
      renaming = { input, recorded: true };
      input.removeAttribute('aria-invalid');
      input.removeAttribute('aria-describedby');
      say(null);
    });
    input.addEventListener('change', () => {
      if (input.getAttribute('aria-invalid') !== 'true') return;
      input.value = session.state.tokens[index];
      input.removeAttribute('aria-invalid');
    });
    input.addEventListener('focusout', () => { renaming = { input: null, recorded: false }; });
    const remove = button(doc, 'remove-token', '\u00d7', () => {
      const problem = propose(withTokenRemoved(session.state, index));
      if (!problem) {
        // Focus stays in the list: on the token that took this one's place, else the last.
        const buttons = list.querySelectorAll('.remove-token');
        (buttons[Math.min(index, buttons.length - 1)] ?? add).focus();
      }
    });
    remove.dataset.token = String(index);
    item.append(input, remove);
    return item;
  }

  // head_dim, applied on "change" (Enter, leaving the field, the arrow keys), not while a
  // number is half typed.
  const headDimLabel = element(doc, 'label', 'head-dim-control');
  const headDim = element(doc, 'input', 'head-dim-input');
  Object.assign(headDim, { type: 'number', min: String(PAGE_LIMITS.minHeadDim), max: String(PAGE_LIMITS.maxHeadDim), step: '1' });
  headDim.addEventListener('change', () => {
    const wanted = Number(headDim.value);
    if (!Number.isInteger(wanted) || wanted < PAGE_LIMITS.minHeadDim || wanted > PAGE_LIMITS.maxHeadDim || headDim.value.trim() === '') {
      headDim.setAttribute('aria-invalid', 'true');
      say(`head_dim: \u201c${headDim.value}\u201d is not a whole number from ${PAGE_LIMITS.minHeadDim} to ` +
        `${PAGE_LIMITS.maxHeadDim}; it stays ${headDimOf(session.state)}.`);
      return;
    }
    headDim.removeAttribute('aria-invalid');
    propose(withHeadDim(session.state, wanted, session.pool()));
  });
  headDimLabel.append(element(doc, 'span', undefined, 'head_dim '), headDim);

  const seed = element(doc, 'span', 'seed-shown');
  const reroll = button(doc, 'reroll', 'Draw new numbers', () => {
    const next = session.state.seed + 1;
    propose(withValuesFromPool(session.state, session.pool(next), next));
  });
  reroll.setAttribute('aria-describedby', 'seed-shown');
  seed.id = 'seed-shown';
  const reset = button(doc, 'reset', 'Reset to the article', () => {
    propose(withStep(session.articleState, session.state.step));
  });

  const row = element(doc, 'div', 'control-row');
  row.append(headDimLabel, reroll, seed, reset, walkButton);
  const mask = maskRadios(doc, session);
  const scale = scaleRadios(doc, session);
  const variants = element(doc, 'div', 'control-row variants');
  variants.append(mask.element, scale.element);
  root.append(tokens, row, variants, message);

  let syncedTokens = null;  // the tokens the fields were last written for
  return {
    element: root,
    /** Brings every control up to the session's state, leaving the one being typed in alone. */
    sync(state) {
      const active = doc.activeElement;
      // A cell's edit leaves the tokens as they were: their fields are written only when the
      // tokens changed, or a refused name is still shown.
      const unchanged = syncedTokens?.length === state.tokens.length &&
        syncedTokens.every((token, i) => token === state.tokens[i]) && !list.querySelector('[aria-invalid]');
      if (!unchanged) {
        if (list.children.length !== state.tokens.length) {
          const focusedIndex = active?.closest?.('.token-list') ? Number(active.dataset.token) : null;
          const focusedKind = active?.classList?.contains('remove-token') ? '.remove-token' : '.token-input';
          list.replaceChildren(...state.tokens.map((_, i) => tokenItem(i)));
          if (focusedIndex !== null) list.querySelectorAll(focusedKind)[Math.min(focusedIndex, state.tokens.length - 1)]?.focus();
        }
        list.querySelectorAll('.token-item').forEach((item, i) => {
          const input = item.querySelector('input');
          input.setAttribute('aria-label', `token ${i + 1}`);
          if (input !== active) {
            input.value = state.tokens[i];
            input.removeAttribute('aria-invalid');
          }
          const remove = item.querySelector('.remove-token');
          remove.setAttribute('aria-label', `Remove token ${i + 1}, \u201c${state.tokens[i]}\u201d`);
          remove.disabled = state.tokens.length <= PAGE_LIMITS.minTokens;
        });
        syncedTokens = [...state.tokens];
      }
      add.disabled = state.tokens.length >= PAGE_LIMITS.maxTokens;
      add.setAttribute('aria-label', state.tokens.length >= PAGE_LIMITS.maxTokens
        ? `Add a token (the page shows at most ${PAGE_LIMITS.maxTokens})` : 'Add a token');
      if (headDim !== active) {
        headDim.value = String(headDimOf(state));
        headDim.removeAttribute('aria-invalid');
      }
      seed.textContent = `seed ${state.seed}`;
      mask.sync(state.mask);
      scale.sync(state.scale);
    },
  };
}
