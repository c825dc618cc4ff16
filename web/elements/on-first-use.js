// Code that only some uses of the elements need, loaded the first time one of them does
// (loaded-on-first-use.js): pencil mode (the `practice` attribute), and the layer of heads and
// the head_dim study (defined on sight, define-on-sight.js), about a third of the elements' code.
// An article that shows a few tables does not download it (docs/benchmarks.md, "Download size");
// the site's pages, whose bundles carry every module they import, lose nothing but a microtask.
//
// An element that needs such code and does not have it yet shows its "computing…" note, as it
// does while the core loads, and draws again once the code has arrived: pencil mode's blanks
// are never drawn late over answers already shown. A failed load is said in the element's box,
// naming what could not be loaded, and the next draw tries again.

/**
 * A module loaded on first use, once, shared by every element.
 * @template T
 * @param {string} what  what the module is, for a message ("pencil mode's code")
 * @param {() => Promise<T>} importer  a dynamic import()
 * @returns {{what: string, readonly loaded: T | null, load(): Promise<T>}}
 */
export function onFirstUse(what, importer) {
  let loaded = null;
  let pending = null;
  return {
    what,
    get loaded() {
      return loaded;
    },
    load() {
      pending ??= importer().then((module) => {
        loaded = module;
        return module;
      }, (error) => {
        pending = null;
        throw error;
      });
      return pending;
    },
  };
}

/**
 * The module of `code` for `element` to draw with now; or null, after starting its load, when it
 * has not arrived yet: the element then draws again (scheduleRender) when it has, or says in its
 * box what could not be loaded, and why.
 * @template T
 * @param {{scheduleRender(): void, showProblem(problem: {text: string}): void}} element
 * @param {{what: string, readonly loaded: T | null, load(): Promise<T>}} code
 * @returns {T | null}
 */
export function codeFor(element, code) {
  if (code.loaded) return code.loaded;
  code.load().then(() => element.scheduleRender(), (error) => {
    element.showProblem({ text: `${code.what} could not be loaded: ${error?.message ?? error}` });
  });
  return null;
}

/** Pencil mode's blanks: the `practice` attribute of the step tables and of the sequel's tables. */
export const practiceCode = onFirstUse('Pencil mode\u2019s code', () => import('./loaded-on-first-use.js'));

/**
 * A new ElementPractice (element-practice.js) for `element` to lay its blanks with; or null
 * while pencil mode's code is on its way (see codeFor), when the element shows its "computing…"
 * note instead of answers the blanks could not hide yet.
 * @param {{scheduleRender(): void, showProblem(problem: {text: string}): void}} element
 * @param {Document} doc
 */
export function newPractice(element, doc) {
  const code = codeFor(element, practiceCode);
  return code ? new code.ElementPractice(doc) : null;
}

/**
 * For an element's attributeChangedCallback: a `practice` attribute starts loading pencil mode's
 * code at once, so that it has arrived by the time the element first draws its numbers.
 * @param {string} name
 * @param {string | null} value
 */
export function loadForAttribute(name, value) {
  if (name === 'practice' && value !== null) practiceCode.load().catch(() => {});
}
