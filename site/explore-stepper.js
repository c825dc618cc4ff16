// The step-through: the article's "walk it yourself", one step at a time. While it is on, the
// sections after the current step are hidden and a small bar after the current one moves
// forward and back (by its buttons, or the Left and Right arrow keys while it has focus). The
// position is part of the page state, so it is in the link and back/forward retrace it.

import { element } from '../web/views/page-slots.js';
import { WALK_STEPS, withStep } from '../web/state/page-state.js';

const STEP_TITLES = Object.freeze({
  inputs: 'The inputs: Q, K and V',
  score: 'Step 1 \u00b7 Score',
  scale: 'Step 2 \u00b7 Scale',
  mask: 'Step 3 \u00b7 Mask',
  softmax: 'Step 4 \u00b7 Softmax',
  mix: 'Step 5 \u00b7 Mix the values',
  demo: 'Step 6 \u00b7 A demonstration',
});

function button(doc, className, text) {
  const node = element(doc, 'button', className, text);
  node.type = 'button';
  return node;
}

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 */
export function createStepper(doc, session) {
  const sections = WALK_STEPS.map((name) => {
    const section = doc.querySelector(`[data-walk="${name}"]`);
    if (!section) throw new Error(`the page has no section for the step "${name}"`);
    return section;
  });
  const laterSections = [...doc.querySelectorAll('[data-walk="after"]')];
  const reducedMotion = doc.defaultView.matchMedia('(prefers-reduced-motion: reduce)');

  const walkButton = button(doc, 'walk-toggle', 'Walk it step by step');
  walkButton.setAttribute('aria-pressed', 'false');

  const nav = element(doc, 'nav', 'stepper');
  nav.setAttribute('aria-label', 'Step through the walkthrough');
  nav.hidden = true;
  const previous = button(doc, 'step-previous', 'Previous step');
  const next = button(doc, 'step-next', 'Next step');
  const status = element(doc, 'p', 'stepper-status');
  status.setAttribute('aria-live', 'polite');
  const hint = element(doc, 'p', 'stepper-hint', 'The Left and Right arrow keys also move while these buttons have focus.');
  const stop = button(doc, 'step-stop', 'Show every step');
  const buttons = element(doc, 'div', 'stepper-buttons');
  buttons.append(previous, next, stop);
  nav.append(status, buttons, hint);

  // Which button to give focus back to once the bar has moved to its new place.
  let refocus = null;
  const go = (step, focus) => {
    refocus = focus;
    session.propose(withStep(session.state, step));
  };

  walkButton.addEventListener('click', () => go(session.state.step === null ? 0 : null, session.state.step === null ? 'next' : null));
  previous.addEventListener('click', () => go(Math.max(0, session.state.step - 1), 'previous'));
  next.addEventListener('click', () => {
    const last = session.state.step >= WALK_STEPS.length - 1;
    go(last ? null : session.state.step + 1, last ? 'walk' : 'next');
  });
  stop.addEventListener('click', () => go(null, 'walk'));
  nav.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === 'ArrowRight' && !next.disabled) {
      event.preventDefault();
      next.click();
    } else if (event.key === 'ArrowLeft' && !previous.disabled) {
      event.preventDefault();
      previous.click();
    }
  });

  return {
    walkButton,
    /** Shows the sections up to the state's step (all of them when the walk is off). */
    sync(state, previousState) {
      const walking = state.step !== null;
      walkButton.setAttribute('aria-pressed', String(walking));
      walkButton.textContent = walking ? 'Stop walking, show every step' : 'Walk it step by step';
      sections.forEach((section, index) => { section.hidden = walking && index > state.step; });
      for (const section of laterSections) section.hidden = walking;
      nav.hidden = !walking;
      if (!walking) {
        nav.remove();
      } else {
        const name = WALK_STEPS[state.step];
        sections[state.step].append(nav);
        status.textContent = `${STEP_TITLES[name]} (${state.step + 1} of ${WALK_STEPS.length})`;
        previous.disabled = state.step === 0;
        next.textContent = state.step === WALK_STEPS.length - 1 ? 'Finish: show everything' : 'Next step';
      }
      const moved = previousState && previousState.step !== state.step;
      if (refocus) {
        const target = { next, previous, walk: walkButton }[refocus];
        (target.disabled ? next : target).focus({ preventScroll: true });
        refocus = null;
      }
      if (moved && walking) {
        sections[state.step].scrollIntoView({ behavior: reducedMotion.matches ? 'auto' : 'smooth', block: 'start' });
      }
    },
  };
}
