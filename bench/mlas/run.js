// Times ONNX Runtime's CPU kernels (MLAS underneath) per element, one thread,
// from node: bench/mlas/run.sh installs onnxruntime-node and writes the models
// (make_models.py), then runs
//
//   node run.js MODELDIR [--quick] [--ops a,b,c]
//
// with NODE_PATH pointing at the install. For every op and n in {65536,
// 4194304}: a session per chain model (OP_1.onnx: one node, OP_32.onnx: 32
// nodes in a chain), intra_op_num_threads = 1, inter_op_num_threads = 1,
// sequential execution, graph optimizations disabled (so the chain stays 32
// nodes; the ops are single kernels either way), CPU execution provider only.
// The two sessions' runs are interleaved, R repeats of C runs each, and
//
//   per node = (median run of the 32-chain - median run of the 1-chain) / 31
//
// cancels what a run costs besides its nodes (the JS binding, copying the
// input in and the output out). Columns, per op:
//   ns/elem    per node / n
//   -identity  the same minus the Identity chain's per-node cost (ONNX
//              Runtime's cost of running one node, there being no arithmetic
//              in it: its output may share its input's buffer)
//   spread     (p75 - p25) / median of the 32-chain's runs
//   check      the 1-chain's output against a double-precision formula:
//              max |d| / max(1e-4, 1e-3 |ref|) (> 1: the kernel is off)
// Inside a chain every node after the first may run in place (ONNX Runtime
// reuses a buffer whose last reader is that node), and it sees the previous
// node's output, not x: values drift towards the op's fixed points; the
// kernels are branch-free over those ranges, so the per-element cost does not
// depend on them much. Input: x ~ N(0, 3) clipped to [-12, 12] (Box-Muller,
// fixed seed; not the same floats as actk_ratio's).
'use strict';

const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const WIDTH = 4096;
const OPS = [
  'erf', 'tanh', 'sigmoid', 'silu', 'quick_gelu', 'gelu', 'gelu_tanh', 'bias_gelu',
  'bias_gelu_tanh',
];
const BIAS = new Set(['bias_gelu', 'bias_gelu_tanh']);

function usage() {
  console.error('usage: node run.js MODELDIR [--quick] [--ops a,b,c]');
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.length < 1) usage();
const dir = args[0];
let repeats = 15, calls = 20, bigCalls = 3, ops = OPS;
for (let i = 1; i < args.length; i++) {
  if (args[i] === '--quick') {
    repeats = 7, calls = 5, bigCalls = 1;
  } else if (args[i] === '--ops' && i + 1 < args.length) {
    ops = args[++i].split(',').filter((s) => s);
    for (const o of ops)
      if (!OPS.includes(o)) {
        console.error(`run.js: unknown op '${o}'`);
        usage();
      }
  } else {
    usage();
  }
}

// splitmix64-seeded Box-Muller, N(0, sigma) clipped to +-clip.
function normals(n, seed, sigma, clip) {
  let s = BigInt(seed);
  const M = (1n << 64n) - 1n;
  const next = () => {
    s = (s + 0x9e3779b97f4a7c15n) & M;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
    z ^= z >> 31n;
    return (Number(z >> 11n) + 0.5) / 2 ** 53;
  };
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(next())), t = 2 * Math.PI * next();
    out[i] = Math.max(-clip, Math.min(clip, sigma * r * Math.cos(t)));
    if (i + 1 < n) out[i + 1] = Math.max(-clip, Math.min(clip, sigma * r * Math.sin(t)));
  }
  return out;
}

// Double references for the check (erf: Abramowitz-Stegun 7.1.26, |error|
// <= 1.5e-7, ample for a 1e-4 tolerance).
function erf(x) {
  const s = Math.sign(x), a = Math.abs(x), t = 1 / (1 + 0.3275911 * a);
  const p = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 +
                                                                             t * 1.061405429))));
  return s * (1 - p * Math.exp(-a * a));
}
const sig = (v) => 1 / (1 + Math.exp(-v));
const geluT = (v) => 0.5 * v * (1 + Math.tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
const REF = {
  erf: erf,
  tanh: Math.tanh,
  sigmoid: sig,
  silu: (v) => v * sig(v),
  quick_gelu: (v) => v * sig(1.702 * v),
  gelu: (v) => 0.5 * v * (1 + erf(v / Math.SQRT2)),
  gelu_tanh: geluT,
  bias_gelu: (v) => 0.5 * v * (1 + erf(v / Math.SQRT2)),
  bias_gelu_tanh: geluT,
  identity: (v) => v,
};

// The bias the models carry, as make_models.py wrote it beside them.
function readBias() {
  const b = fs.readFileSync(path.join(dir, 'bias.f32'));
  return new Float32Array(b.buffer, b.byteOffset, WIDTH);
}

function quart(v) {
  const s = [...v].sort((a, b) => a - b);
  const at = (q) => {
    const pos = q * (s.length - 1), i = Math.floor(pos), f = pos - i;
    return i + 1 < s.length ? s[i] * (1 - f) + s[i + 1] * f : s[i];
  };
  return { p25: at(0.25), med: at(0.5), p75: at(0.75) };
}

async function session(op, len) {
  const opts = {
    executionProviders: ['cpu'],
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'disabled',
  };
  return ort.InferenceSession.create(path.join(dir, `${op}_${len}.onnx`), opts);
}

async function timeRuns(s, feeds, c) {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < c; i++) await s.run(feeds);
  return Number(process.hrtime.bigint() - t0) / c;
}

async function main() {
  console.log(`onnxruntime-node ${require('onnxruntime-node/package.json').version}, ` +
              `node ${process.version}; models: ${dir}`);
  console.log('sessions: cpu EP, intra_op_num_threads 1, inter_op_num_threads 1, sequential, ' +
              'graph optimizations disabled; per node = (32-chain - 1-chain) / 31');
  const bias = readBias();
  for (const [si, n] of [65536, 4194304].entries()) {
    const c = si === 0 ? calls : bigCalls;
    const x = normals(n, 0x61636b746b5f78, 3, 12);
    console.log(`\nn = ${n}, ${repeats} interleaved repeats x ${c} runs, medians, ns/element`);
    console.log(`${'op'.padEnd(15)} ${'ns/elem'.padStart(8)} ${'-identity'.padStart(9)} ` +
                `${'spread'.padStart(7)} ${'check'.padStart(7)}`);
    let identity = NaN;
    for (const op of ['identity', ...ops]) {
      const dims = BIAS.has(op) ? [n / WIDTH, WIDTH] : [n];
      const feeds = { x: new ort.Tensor('float32', x, dims) };
      const s1 = await session(op, 1), s32 = await session(op, 32);
      const out = (await s1.run(feeds)).y.data;
      await s32.run(feeds);
      let worst = 0;
      for (let i = 0; i < n; i++) {
        const v = BIAS.has(op) ? Math.fround(x[i] + bias[i % WIDTH]) : x[i];
        const r = REF[op](v), d = Math.abs(out[i] - r);
        const q = Number.isNaN(d) ? Infinity : d / Math.max(1e-4, 1e-3 * Math.abs(r));
        if (q > worst) worst = q;
      }
      const t1 = [], t32 = [];
      for (let r = 0; r < repeats; r++) {
        t32.push(await timeRuns(s32, feeds, c));
        t1.push(await timeRuns(s1, feeds, c));
      }
      const q32 = quart(t32), q1 = quart(t1);
      const node = (q32.med - q1.med) / 31 / n;
      if (op === 'identity') identity = node;
      const net = op === 'identity' ? '-' : (node - identity).toFixed(3);
      console.log(`${op.padEnd(15)} ${node.toFixed(3).padStart(8)} ${net.padStart(9)} ` +
                  `${(100 * (q32.p75 - q32.p25) / q32.med).toFixed(1).padStart(6)}% ` +
                  `${worst.toFixed(3).padStart(7)}`);
      await s1.release();
      await s32.release();
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
