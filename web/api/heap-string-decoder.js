// heap-string-decoder.js: a TextDecoder whose UTF-8 strings are ordinary JavaScript strings,
// for the training worker (training-worker.js installs it before the core loads).
//
// Why: every answer of the core crosses as JSON text, which the compiler's glue decodes with
// the global TextDecoder. Chromium's TextDecoder returns external strings (the characters stay
// in the browser's own allocator, the JavaScript heap holds a handle with a finalizer). The
// worker decodes about 110 kB of them a step (a trainer's state() and attend()), so they fill
// V8's budget for memory outside its heap: every second or two the worker runs a full
// collection, whose finalizers of those strings then hold the worker's thread for 30 to 330 ms,
// and the page's thread, in the same process, is held up meanwhile: a frame's task that
// overlaps them takes over 50 ms ten times as often as one that does not (docs/training.md).
// Strings made by String.fromCharCode live in the heap and die young, with no finalizer.
//
// The core writes ASCII JSON, decoded here; text with any other byte, a stream, and every
// other encoding go to the platform's decoder, so the result is always the platform's.

const PlatformTextDecoder = globalThis.TextDecoder;

// String.fromCharCode takes the bytes as arguments: in pieces, to stay far below the engines'
// limits on the number of arguments.
const PIECE = 8192;

function isAscii(bytes) {
  for (let i = 0; i < bytes.length; i += 1) {
    if (bytes[i] > 0x7f) return false;
  }
  return true;
}

/** The bytes of a BufferSource (an ArrayBuffer or any view of one) as a Uint8Array. */
function bytesOf(input) {
  if (input instanceof Uint8Array) return input;
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  return null;
}

export class HeapStringDecoder {
  #platform;
  #utf8;
  #streaming = false;  // the platform's decoder may hold the start of a character

  constructor(label = 'utf-8', options = {}) {
    this.#platform = new PlatformTextDecoder(label, options);
    this.#utf8 = this.#platform.encoding === 'utf-8';
  }

  get encoding() { return this.#platform.encoding; }

  get fatal() { return this.#platform.fatal; }

  get ignoreBOM() { return this.#platform.ignoreBOM; }

  decode(input, options = {}) {
    const bytes = input === undefined ? new Uint8Array(0) : bytesOf(input);
    if (!this.#utf8 || this.#streaming || options.stream || bytes === null || !isAscii(bytes)) {
      this.#streaming = Boolean(options.stream);
      return this.#platform.decode(input, options);
    }
    if (bytes.length <= PIECE) return String.fromCharCode.apply(null, bytes);
    const pieces = [];
    for (let start = 0; start < bytes.length; start += PIECE) {
      pieces.push(String.fromCharCode.apply(null, bytes.subarray(start, start + PIECE)));
    }
    return pieces.join('');
  }
}
