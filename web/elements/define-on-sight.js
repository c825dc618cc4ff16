// Elements whose code is loaded, and whose name is defined, when the first element of that name
// is in a page: the layer of heads and the head_dim study compute with the core's full build
// (a 500 KB .wasm, fetched once one of them connects), which a page with only the walkthrough's
// elements never loads, so the module an author adds does not carry their code either (2.9 KB
// gzipped less to download). Until its name is defined such an element is an empty, unknown
// one; its attributes, and properties set on it meanwhile (each element takes those over when
// it upgrades), are read when it does. The site's page bundles carry these modules, so there the
// definition is only a few microtasks late.
//
// Where one is looked for: the document, and every shadow root handed to
// defineAttentionElements() (an author's own component that puts one inside its shadow root).
// A load that fails defines the name as an element that says so in its box, rather than leaving
// a blank space.

const watched = new WeakSet();  // the roots already looked in, each once

/**
 * Defines each of `lazy` ([name, load() resolving to the class]) in `registry` as soon as an
 * element of that name is in `root` or is added to it later.
 * @param {CustomElementRegistry} registry
 * @param {Document | ShadowRoot} root
 * @param {Array<[string, () => Promise<CustomElementConstructor>]>} lazy
 */
export function defineOnSight(registry, root, lazy) {
  const waiting = new Map(lazy.filter(([name]) => !registry.get(name)));
  if (waiting.size === 0 || watched.has(root)) return;
  watched.add(root);
  const defineFound = (found) => {
    for (const name of found) {
      const load = waiting.get(name);
      if (!load) continue;
      waiting.delete(name);
      load().then((constructor) => {
        if (!registry.get(name)) registry.define(name, constructor);
      }, (error) => {
        if (!registry.get(name)) registry.define(name, unavailable(name, error));
      });
    }
  };
  defineFound([...waiting.keys()].filter((name) => root.querySelector(name)));
  const View = root.ownerDocument?.defaultView ?? root.defaultView ?? globalThis;
  if (waiting.size === 0 || typeof View.MutationObserver !== 'function') return;
  // Only what is added is looked at, so a page that never adds one pays a check per added node.
  const observer = new View.MutationObserver((records) => {
    const found = new Set();
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        for (const name of waiting.keys()) {
          if (node.localName === name || node.querySelector(name)) found.add(name);
        }
      }
    }
    defineFound(found);
    if (waiting.size === 0) observer.disconnect();
  });
  observer.observe(root, { childList: true, subtree: true });
}

// An element that says, in its own box, that its code could not be loaded.
function unavailable(name, error) {
  const Base = globalThis.HTMLElement;
  return class extends Base {
    connectedCallback() {
      if (this.shadowRoot) return;
      const message = this.ownerDocument.createElement('p');
      message.setAttribute('role', 'alert');
      message.textContent = `<${name}> could not be loaded: ${error?.message ?? error}`;
      this.attachShadow({ mode: 'open' }).append(message);
    }
  };
}
