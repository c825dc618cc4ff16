// The training model (web/api/trainer.js) recomputed in float64 from its formula, and the
// parameters' digest recomputed from their float32 bits: what the trainer suites compare the
// module's numbers with.

// Mean cross-entropy of every next word of `sentences` (strings of words) under `parameters`
// (state().parameters), by x_t = E[w_t] + P[t], causal heads ÷ √head_dim, h = x + concat·W_O,
// logits = h·U + b.
export function meanLossF64(parameters, vocabulary, sentences) {
  const { embedding: E, position: P, w_q, w_k, w_v, w_o, unembedding: U, bias } = parameters;
  const index = new Map(vocabulary.map((word, n) => [word, n]));
  const d = E[0].length;
  const heads = w_q.length;
  const hd = d / heads;
  let total = 0;
  let predicted = 0;
  for (const sentence of sentences) {
    const w = sentence.split(' ').map((word) => index.get(word));
    const T = w.length;
    const x = w.map((word, t) => E[word].map((e, c) => e + P[t][c]));
    const concat = x.map(() => new Array(d).fill(0));
    for (let h = 0; h < heads; h += 1) {
      const project = (W) => x.map((row) => Array.from({ length: hd },
        (_, c) => row.reduce((sum, value, a) => sum + value * W[h][a][c], 0)));
      const q = project(w_q), k = project(w_k), v = project(w_v);
      for (let i = 0; i < T; i += 1) {
        const scores = k.slice(0, i + 1).map((kj) => kj.reduce((s, value, c) => s + value * q[i][c], 0) / Math.sqrt(hd));
        const top = Math.max(...scores);
        const e = scores.map((s) => Math.exp(s - top));
        const sum = e.reduce((a, b) => a + b, 0);
        for (let j = 0; j <= i; j += 1) {
          for (let c = 0; c < hd; c += 1) concat[i][h * hd + c] += (e[j] / sum) * v[j][c];
        }
      }
    }
    for (let t = 0; t + 1 < T; t += 1) {
      const residual = x[t].map((value, c) => value + concat[t].reduce((s, a, m) => s + a * w_o[m][c], 0));
      const logits = bias.map((b, v) => b + residual.reduce((s, value, c) => s + value * U[c][v], 0));
      const top = Math.max(...logits);
      const sum = logits.reduce((s, l) => s + Math.exp(l - top), 0);
      total += Math.log(sum) + top - logits[w[t + 1]];
      predicted += 1;
    }
  }
  return total / predicted;
}

// FNV-1a over every parameter's float32 bits (little-endian), in the core's order: E, P, W_Q of
// each head, W_K, W_V, W_O, U, b. Equal to state().parameter_digest only if the JSON numbers
// are the float32 values exactly.
export function parameterDigest(parameters) {
  const { embedding, position, w_q, w_k, w_v, w_o, unembedding, bias } = parameters;
  const values = [embedding, position, ...w_q, ...w_k, ...w_v, w_o, unembedding, [bias]].flat(2);
  const bytes = new Uint8Array(new Float32Array(values).buffer);
  let hash = 0xcbf29ce484222325n;
  for (const byte of bytes) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

// Every parameter as one flat list, in the digest's order.
export function flatParameters(parameters) {
  const { embedding, position, w_q, w_k, w_v, w_o, unembedding, bias } = parameters;
  return [embedding, position, ...w_q, ...w_k, ...w_v, w_o, unembedding, [bias]].flat(2);
}

// The index of the largest weight in row `row` of a trace's weights.
export function largestWeight(weights, row) {
  let best = 0;
  for (let j = 1; j <= row; j += 1) if (weights[row][j] > weights[row][best]) best = j;
  return best;
}

// Head h's attention weights on `words` under `parameters`, in float64: x_t = E[w_t] + P[t],
// Q = x·W_Q, K = x·W_K, softmax of the causal scores ÷ √head_dim.
export function headWeightsF64(parameters, vocabulary, words, h = 0) {
  const { embedding: E, position: P, w_q, w_k } = parameters;
  const x = words.map((word, t) => E[vocabulary.indexOf(word)].map((e, c) => e + P[t][c]));
  const project = (W) => x.map((row) => W[h][0].map((_, c) => row.reduce((sum, value, a) => sum + value * W[h][a][c], 0)));
  const q = project(w_q);
  const k = project(w_k);
  const hd = q[0].length;
  return q.map((qi, i) => {
    const scores = k.slice(0, i + 1).map((kj) => kj.reduce((s, value, c) => s + value * qi[c], 0) / Math.sqrt(hd));
    const top = Math.max(...scores);
    const e = scores.map((s) => Math.exp(s - top));
    const sum = e.reduce((a, b) => a + b, 0);
    return words.map((_, j) => (j <= i ? e[j] / sum : 0));
  });
}

// Head h's q, k and v on `words` under `parameters`, in float64: x_t = E[w_t] + P[t], then
// x·W_Q, x·W_K, x·W_V.
export function headProjectionsF64(parameters, vocabulary, words, h = 0) {
  const { embedding: E, position: P, w_q, w_k, w_v } = parameters;
  const x = words.map((word, t) => E[vocabulary.indexOf(word)].map((e, c) => e + P[t][c]));
  const project = (W) => x.map((row) => W[h][0].map((_, c) => row.reduce((sum, value, a) => sum + value * W[h][a][c], 0)));
  return { q: project(w_q), k: project(w_k), v: project(w_v) };
}
