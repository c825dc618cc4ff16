// The page state in the URL hash: every accepted change is written there (a new history entry,
// or the same one while a cell is being typed in), so a link reproduces what the reader sees,
// and back and forward step through the reader's changes. While a reader types, the entry is
// rewritten (and announced) a quarter of a second after the last keystroke, not at every one:
// writing the address costs time an edit does not have, and browsers throttle pages that
// rewrite it often. A hash that cannot be used, too long,
// malformed, or refused by the core, is ignored with a message; the page shows the article's
// example instead and keeps working. A pencil-mode exercise has keys of its own in the same hash
// (web/state/practice-hash.js), read first: a malformed one is refused with its own message and
// the rest of the link still applies. Every link applied or written is announced (LINK_EVENT)
// to the parts of the page that follow it, so none of them reads the address itself.

import { needsTrainedHead, parseStateHash, sameInput, stateToHash, withSettings } from '../web/state/page-state.js';
import { parsePracticeHash } from '../web/state/practice-hash.js';

/**
 * The event the share announces after every link it applies or writes, for the parts of the
 * page that follow the link (the printed worksheet): detail {hash, exercise, problem, state},
 * the exercise as explore-practice.js holds it (null when off), the link's refused practice
 * part (the link module's message) or null, and the page state shown.
 */
export const LINK_EVENT = 'linkchange';

/**
 * @param {Document} doc
 * @param {import('./explore-session.js').ExploreSession} session
 * @param {{fromLink: Function, hashPart: () => string, inRound: boolean}} practice  the
 *        exercise (explore-practice.js): it takes a link's practice keys and gives its own back
 */
export function createShare(doc, session, practice) {
  const view = doc.defaultView;
  const message = doc.getElementById('link-problem');
  const events = new EventTarget();
  let linkProblem = null;  // the refused practice part of the link applied last, until a change
  const announce = () => events.dispatchEvent(new CustomEvent(LINK_EVENT, {
    detail: { hash: view.location.hash, exercise: practice.exercise, problem: linkProblem, state: session.state },
  }));

  // A refused practice part is said with whatever the rest of the link gives; a refused page
  // part stays said when a round's numbers are shown instead.
  let pageRefused = false;
  const practiceRefusal = () => (linkProblem ? `The practice settings in this link could not be used (${linkProblem}), ` +
    'so the tables are shown filled in.' : null);
  const say = (text) => {
    const shown = [text, practiceRefusal()].filter(Boolean).join(' ');
    message.textContent = shown;
    message.hidden = !shown;
  };
  const ignored = (problem) => say(`The settings in this link could not be used (${problem}), so the page ` +
    'shows the article\u2019s example instead.');

  // The article's example with nothing changed has no hash at all: the plain address. A round
  // fixes the numbers, so its link carries the exercise's keys only.
  const pageHash = (state) => (sameInput(state, session.articleState) && state.seed === session.articleState.seed &&
    state.step === null ? '' : stateToHash(state));
  const hashOf = (state) => {
    const exercise = practice.hashPart();
    const own = practice.inRound ? '' : pageHash(state);
    const joined = [own.replace(/^#/u, ''), exercise].filter(Boolean).join('&');
    return joined === '' ? '' : `#${joined}`;
  };

  // The state a hash describes, or null (with the message shown) when it cannot be used.
  function stateFromHash(hash) {
    const link = parsePracticeHash(hash);
    linkProblem = link.problem;
    const base = pageStateFromHash(link.rest, hash);
    return practice.fromLink(link, base ?? session.articleState) ?? base;
  }

  function pageStateFromHash(rest, hash) {
    const { settings, problem, empty } = parseStateHash(rest);
    pageRefused = Boolean(problem);
    if (problem) {
      ignored(problem);
      return null;
    }
    // Tokens only: the article's example until part three's trained head has answered for them.
    // Its module (and the training it may start) is fetched only for such a link.
    if (needsTrainedHead(settings)) {
      import('../web/api/trained-input.js').then(({ applyTrainedHead }) => applyTrainedHead(settings, {
        isCurrent: () => view.location.hash === hash,
        propose: (trained) => session.propose(withSettings(session.articleState, trained), { history: 'none', origin: 'load' }),
        say,
        ignored,
      }), (error) => ignored(`the trained head could not be loaded: ${error?.message ?? error}`));
      return session.articleState;
    }
    return empty ? session.articleState : withSettings(session.articleState, settings);
  }

  // Applies the hash now in the address bar (on load, back, forward, or a hand-edited hash).
  function applyLocation(origin) {
    const applied = proposeLocation(origin);
    announce();
    return applied;
  }

  function proposeLocation(origin) {
    const wanted = stateFromHash(view.location.hash);
    if (wanted) {
      const problem = session.propose(wanted, { history: 'none', origin });
      if (!problem) {
        if (!pageRefused) say(null);
        return true;
      }
      ignored(problem);
    }
    if (!session.state) session.propose(session.articleState, { history: 'none', origin });
    return false;
  }

  // The hash the page wrote last (a hashchange to anything else came from outside), and the
  // typed change waiting to be written into the current entry.
  let lastWritten = view.location.hash;
  let pending = null;
  const REWRITE_DELAY_MS = 250;
  const write = (history, state) => {
    const hash = hashOf(state);
    if (hash === view.location.hash) return;
    const url = `${view.location.pathname}${view.location.search}${hash}`;
    if (history === 'replace') view.history.replaceState(null, '', url);
    else view.history.pushState(null, '', url);
    lastWritten = view.location.hash;
  };
  // Writes at once the rewrite a typed change is waiting for.
  const flush = () => {
    if (!pending) return;
    clearTimeout(pending.timer);
    write('replace', pending.state);
    pending = null;
  };
  // A typed change is announced with its write, not at every keystroke: the worksheet that
  // follows the link is drawn again at most once per pause in the typing.
  const flushAndAnnounce = () => {
    flush();
    announce();
  };
  view.addEventListener('pagehide', flush);

  view.addEventListener('popstate', () => {
    // Too late for a waiting rewrite: that entry is no longer the current one.
    if (pending) clearTimeout(pending.timer);
    pending = null;
    applyLocation('history');
  });
  // A hash typed into the address bar fires both events; the second finds nothing new to do.
  view.addEventListener('hashchange', () => {
    if (view.location.hash !== lastWritten) applyLocation('history');
  });

  return {
    /** Shows the state the page was opened with: the link's, else the article's. */
    start: () => applyLocation('load'),
    /** Writes a change of the exercise alone (the switch, a list of cells) into the address. */
    exerciseChanged() {
      linkProblem = null;
      say(null);
      flush();
      write('push', session.state);
      announce();
    },
    /** Writes an accepted change into the address, as the change asked to be recorded. */
    record(history) {
      if (history === 'none') {
        lastWritten = view.location.hash;
      } else {
        linkProblem = null;
        say(null);
        if (history === 'replace') {
          if (pending) clearTimeout(pending.timer);
          pending = { state: session.state, timer: setTimeout(flushAndAnnounce, REWRITE_DELAY_MS) };
          return;  // announced with the address it writes
        }
        flush();  // the entry being left keeps the reader's last keystroke
        write('push', session.state);
      }
      announce();
    },
    /** Listens for LINK_EVENT. */
    addEventListener: (type, listener) => events.addEventListener(type, listener),
  };
}
