// The training page: registers the training elements (each owns its part: the trainer its run
// and controls, the pieces their drawing) and says when the trainer is ready, or why it is not.

const page = document;
const status = page.getElementById('load-status');

function showProblem(message) {
  const problem = page.getElementById('load-problem');
  problem.textContent = message;
  problem.hidden = false;
  status.hidden = true;
}

if (typeof globalThis.WebAssembly !== 'object' || globalThis.WebAssembly === null) {
  showProblem('This page trains its model with WebAssembly, and this browser does not provide it (it may be turned off).');
} else {
  page.getElementById('trainer').addEventListener('attention-change', () => {
    status.textContent = 'Ready: press Train.';
    status.classList.add('done');
  }, { once: true });
  import('../web/attention-training-elements.js').then(({ createAttention }) => createAttention()).catch((error) => {
    showProblem(`The WebAssembly module failed to load, so nothing can be trained. (${error?.message ?? error})`);
  });
}
