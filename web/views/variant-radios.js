// A group of radio buttons for one variant of a computation (a mask, a scale): one Tab stop,
// the arrow keys move between them as in any radio group, and a refusal is said under them.
// The walkthrough's controls and the elements with a choice of their own draw it from here.

import { element } from './page-slots.js';

let radioGroups = 0;  // gives every radio group on the page its own name

/**
 * A group of radio buttons for one of the state's variants (the arrow keys move between them,
 * as in any radio group).
 * @param {Document} doc
 * @param {{legend: string, values: readonly string[], labels: Record<string, string>,
 *          choose: (value: string) => string | null, kind: string}} options
 *        choose: applies a value and returns a refusal to show, or null
 */
export function variantRadios(doc, { legend, values, labels, choose, kind }) {
  radioGroups += 1;
  const name = `${kind}-choice-${radioGroups}`;
  const fieldset = element(doc, 'fieldset', 'variant-choice');
  fieldset.dataset.choice = kind;
  fieldset.append(element(doc, 'legend', undefined, legend));
  const message = element(doc, 'p', 'control-message');
  message.setAttribute('aria-live', 'polite');
  message.hidden = true;
  for (const value of values) {
    const label = element(doc, 'label', 'choice');
    const radio = element(doc, 'input');
    Object.assign(radio, { type: 'radio', name, value });
    radio.addEventListener('change', () => {
      if (!radio.checked) return;
      const problem = choose(value);
      message.textContent = problem ?? '';
      message.hidden = !problem;
    });
    label.append(radio, ' ', element(doc, 'span', undefined, labels[value]));
    fieldset.append(label);
  }
  fieldset.append(message);
  return {
    element: fieldset,
    /** Checks the radio of `value`. */
    sync(value) {
      for (const radio of fieldset.querySelectorAll('input[type="radio"]')) radio.checked = radio.value === value;
    },
  };
}
