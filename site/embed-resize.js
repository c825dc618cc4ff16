// For the page that embeds embed.html in an <iframe>: sizes each such iframe to the height it
// reports. Copy this file to your site and load it with
//   <script src="/path/to/embed-resize.js" defer></script>
// (a file of your own origin passes a `script-src 'self'` policy). Only the iframe that sent
// a message is resized, so several embeds on one page each get their own height.
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'attention-by-hand:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.getElementsByTagName('iframe')) {
    if (frame.contentWindow === event.source) {
      frame.height = String(Math.min(Math.max(Math.ceil(data.height), 0), 20000));
    }
  }
});
