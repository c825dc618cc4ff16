// The end of a page's load, shared by the pages whose every number comes from the core: the line
// under the title says that the numbers below were computed here, and the frame that shows them
// carries the marks a cold load is timed to (bench/page-load.mjs reads both): `fully-rendered`
// as that frame begins, `fully-painted` in the first task after its style, layout and paint.

/**
 * @param {Document} doc  a page with a `#load-status` line
 */
export function announceAllComputed(doc) {
  const status = doc.getElementById('load-status');
  status.textContent = 'Every number below was computed just now, in this browser.';
  status.classList.add('done');
  const view = doc.defaultView;
  view.requestAnimationFrame(() => {
    performance.mark('fully-rendered');
    view.setTimeout(() => performance.mark('fully-painted'), 0);
  });
}
