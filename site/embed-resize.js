// For the page that embeds embed.html in an <iframe>: sizes each such iframe to the height it
// reports. Copy this file to your site and load it with
//   <script src="/path/to/embed-resize.js" defer></script>
// (a file of your own origin passes a `script-src 'self'` policy). Only the iframe that sent
// a message is resized, so several embeds on one page each get their own height.
// The embeds may report before this script runs (it may load late, or wait behind other
// scripts), so it asks every iframe for its height when it starts and whenever one loads; an
// embed answers, and reports again on every change of its height.
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'attention-by-hand:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.getElementsByTagName('iframe')) {
    if (frame.contentWindow === event.source) {
      frame.height = String(Math.min(Math.max(Math.ceil(data.height), 0), 20000));
    }
  }
});
function askHeight(frame) {
  frame.contentWindow?.postMessage({ type: 'attention-by-hand:height-request' }, '*');
}
for (const frame of document.getElementsByTagName('iframe')) askHeight(frame);
window.addEventListener('load', (event) => {
  if (event.target instanceof HTMLIFrameElement) askHeight(event.target);
}, true);
