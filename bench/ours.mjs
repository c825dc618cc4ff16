// Our kernels as a page reaches them: through attention.attend() of the object that
// createAttention() resolves to (with an `out` array kept per shape), one contender per registered kernel, plus the default kernel of
// the scalar build (the core compiled without SIMD).

export const OURS_SCALAR_BUILD_ID = 'ours-scalar-build';
export const OURS_DEFAULT_ID = 'ours-default';

function attendContender(attention, { id, label, kernel, facts, supports }) {
  return {
    id,
    label,
    group: 'ours',
    sync: true,
    facts,
    supports,
    heapBytes: () => attention.heapBytes?.(),
    async prepare({ t, d, mask }) {
      // One output array per shape, as a page calling attend() in a loop would keep.
      const request = { t, d, mask, out: new Float32Array(t * d) };
      if (kernel) request.kernel = kernel;
      return {
        call: (q, k, v) => attention.attend({ q, k, v, ...request }),
        dispose() {},
      };
    },
  };
}

const isTiled = (name) => name.includes('tiled');

/**
 * @param {(options?: object) => Promise<object>} createAttention
 * @param {{kernels?: (name: string) => boolean, scalarBuild?: boolean}} [options]
 * @returns {Promise<{attention: object|null, contenders: object[], notes: string[]}>}
 */
export async function ourContenders(createAttention, { kernels: keepKernel = () => true, scalarBuild = true } = {}) {
  const notes = [];
  const attention = await createAttention();
  if (typeof attention.attend !== 'function') {
    notes.push('this build of the JS API has no attend(); our kernels were not measured');
    return { attention, contenders: [], notes };
  }
  const contenders = [];
  for (const { name, isa, vector_width: vectorWidth } of attention.kernels()) {
    if (!keepKernel(name)) continue;
    contenders.push(attendContender(attention, {
      id: `ours:${name}`,
      label: `ours, ${name}`,
      kernel: name,
      facts: { kernel: name, isa, vector_width: vectorWidth, build: 'simd', threads: 1 },
      // Only a SIMD kernel whose memory grows with T·d is asked to run T = 65 536 (the scalar
      // backend's tiled kernel would take minutes per call there).
      supports: ({ t, trace }) => {
        if (trace) return 'the trace timing uses the default kernel';
        return t <= 8192 || (isTiled(name) && isa !== 'scalar') || 'only the SIMD tiled kernel runs beyond T = 8192';
      },
    }));
  }
  // The kernel attend() picks on its own, for the trace comparison only (tiny T).
  contenders.push(attendContender(attention, {
    id: OURS_DEFAULT_ID,
    label: 'ours, attend() with its default kernel',
    facts: { build: 'simd', threads: 1 },
    supports: ({ trace }) => (trace ? true : 'the size sweep names each kernel'),
  }));
  if (scalarBuild) {
    try {
      const scalar = await createAttention({ build: 'scalar' });
      if (typeof scalar.attend !== 'function') throw new Error('it has no attend()');
      if (scalar === attention) throw new Error('createAttention({ build: "scalar" }) returned the SIMD build');
      const isas = [...new Set(scalar.kernels().map((k) => k.isa))];
      contenders.push(attendContender(scalar, {
        id: OURS_SCALAR_BUILD_ID,
        label: 'ours, scalar build (no SIMD), default kernel',
        facts: { build: 'scalar', isa: isas.join(', '), threads: 1 },
        supports: ({ t, trace }) => (trace ? 'not in the trace timing' : t <= 8192 || 'the scalar build runs up to T = 8192'),
      }));
    } catch (error) {
      notes.push(`the scalar build was not measured: ${error.message}`);
    }
  }
  return { attention, contenders, notes };
}
