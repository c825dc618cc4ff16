// Command-line options shared by run-node.mjs and run-chromium.mjs (see command-line.mjs).

export const USAGE = `options:
  --quick             a short run: T in {4, 64, 256, 1024}, d = 64, 3 rounds
  --sizes 4,64,...    sequence lengths T to run (65536 runs only for the tiled kernel)
  --d 64,128          head dimensions to run
  --reps N            timed rounds per size (the median is reported)
  --only a,b          only implementations whose id starts with one of these
                      (ours, ours:KERNEL, ours-scalar-build, ort, tfjs, plain-js)
  --mask causal|none  the mask (default causal)
  --no-trace          skip the complete-trace timing
  --out FILE          where to write the JSON (default build/bench/results-<environment>.json,
                      which is also copied into build/site for the benchmark page)`;

function positiveIntegers(flag, text) {
  const values = String(text ?? '').split(',').filter(Boolean).map(Number);
  if (!values.length || values.some((x) => !Number.isInteger(x) || x < 1)) {
    throw new Error(`${flag} takes comma-separated positive integers, got "${text}"`);
  }
  return values;
}

/** Parses argv into options for runBenchmark plus `only`, `out` and `help`. */
export function parseBenchArguments(argv) {
  const options = { quick: false, traceTiming: true, mask: 'causal' };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = () => {
      i += 1;
      if (argv[i] === undefined) throw new Error(`${flag} needs a value`);
      return argv[i];
    };
    switch (flag) {
      case '--quick': options.quick = true; break;
      case '--sizes': options.sizes = positiveIntegers(flag, value()); break;
      case '--d': options.dims = positiveIntegers(flag, value()); break;
      case '--reps': [options.reps] = positiveIntegers(flag, value()); break;
      case '--only': options.only = value().split(',').filter(Boolean); break;
      case '--mask': {
        options.mask = value();
        if (!['causal', 'none'].includes(options.mask)) throw new Error('--mask is causal or none');
        break;
      }
      case '--no-trace': options.traceTiming = false; break;
      case '--out': options.out = value(); break;
      case '-h': case '--help': options.help = true; break;
      default: throw new Error(`unknown argument: ${flag}\n${USAGE}`);
    }
  }
  return options;
}

/** True when an implementation id is selected by --only (everything when --only is absent). */
export function isSelected(only, id) {
  return !only || only.some((prefix) => id === prefix || id.startsWith(prefix));
}
