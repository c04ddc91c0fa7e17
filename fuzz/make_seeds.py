#!/usr/bin/env python3
"""Writes the hand-made seed corpora fuzz/corpus/fuzz_api and fuzz/corpus/fuzz_bits.

    python3 fuzz/make_seeds.py      # rewrites the seeds (deterministic)

Each fuzz_api seed spells one call in the byte format fuzz_api.c decodes
(fuzz/README.md describes it); the names say what the call is. The fuzz_bits
seeds are raw little-endian float bits.
"""
import os
import re
import struct
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))


def op_table():
    with open(os.path.join(HERE, "..", "src", "ops.toml"), "rb") as f:
        return tomllib.load(f)


def registry_ops():
    """fuzz_api.c's op choices by their ids (src/ops.toml's fuzz fields, as
    fuzz/ops.gen.h lists them): "<op>" for the first tier, "<op>/<tier>" for
    the others; rope and rope_cache. An id keeps its op for ever."""
    t = op_table()
    tiers = [ti["name"] for ti in t["tier"]]
    by_id = {}
    for o in t["op"]:
        for k, tier in enumerate(tiers):
            by_id[o["fuzz"] + k] = o["name"] if k == 0 else "%s/%s" % (o["name"], tier)
    for name, i in t["fuzz"].items():
        by_id[i] = name
    return [by_id[i] for i in range(max(by_id) + 1)]


def registry_types():
    """The element types in src/ops.toml's order: an input's type byte
    indexes them (fuzz/fuzz_types.h lists them in that order)."""
    return [ty["name"] for ty in op_table()["type"]]


OPS = registry_ops()
TYPES = registry_types()
POOL = {"none": 0, "1thread": 1, "3threads": 2, "host": 3, "2threads": 4}


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v)


def u64(v):
    return struct.pack("<Q", v & (2**64 - 1))


def f32(v):
    return struct.pack("<f", v)


def header(op, pool="none", isa=0, type="f32"):
    return bytes([OPS.index(op), POOL[pool], isa, TYPES.index(type)])


def odd_byte(type, odd):
    """16-bit types end a call with the byte that moves arrays off the element
    grid (fuzz_api.c's ODD_*: 1 y odd, 2 x, 4 x one byte down, 8 the bias)."""
    return b"" if type == "f32" else bytes([odd])


def elementwise(op, n, alias=0, xwhere=0, skip=0, pre=4, post=4, dsel=0, pool="none", isa=0,
                alpha=None, wsel=2, bwhere=0, wv=0, boff=0, huge=None, type="f32", odd=0):
    """n: 0..255 small, else 256..4095 mid, else an even number up to 131070."""
    if huge is not None:
        nb = bytes([15, huge]) + u32(7)
    elif n < 256:
        nb = bytes([0, n])
    elif n < 4096:
        nb = bytes([9]) + u16(n)
    else:
        nb = bytes([12]) + u16(n // 2)
    b = header(op, pool, isa, type) + nb + bytes([alias, xwhere, skip, pre, post]) + u16(dsel)
    if op.split("/")[0] == "swish":
        b += f32(1.0 if alpha is None else alpha)
    return b + bytes([wsel, bwhere]) + u16(wv) + u16(boff) + odd_byte(type, odd)


def size_class(n, huge=None):
    """fuzz_api.c's decode_n: 0..255 small, else 256..4095 mid, else an even
    number up to 131070; huge: the kind of a huge n."""
    if huge is not None:
        return bytes([15, huge]) + u32(7)
    if n < 256:
        return bytes([0, n])
    if n < 4096:
        return bytes([9]) + u16(n)
    return bytes([12]) + u16(n // 2)


def gated(op, n=0, rows=None, d=0, gmode=0, umode=0, gwhere=0, uwhere=0, skip=0, pre=4, post=4,
          gsel=0, usel=0, ysel=0, pool="none", isa=0, type="f32", odd=0, huge=None):
    """The gated ops: plain (gate, up of n elements) unless rows is given,
    then packed (x = [rows, 2d]; rows < 17 and d < 256 small, else rows < 1024
    and d <= 4096, huge: the kind of a huge shape). gmode/umode: the input's
    place (fuzz_api.c's gated_place: 0-2 own arena, 3 y itself, 4 a partial
    overlap, 5 after y, 6 before, 7 NULL, up 8: gate + usel - n); ysel 11: y NULL."""
    b = header(op, pool, isa, type)
    if rows is None:
        b += bytes([0]) + size_class(n, huge) + bytes([gmode, umode])
    else:
        k = 15 if huge is not None else 0 if rows < 17 and d < 256 else 8
        a, v = (huge, rows) if huge is not None else (rows, d if k == 0 else d - 1)
        b += bytes([1, k]) + u16(a) + u16(v) + bytes([gmode])
    return (b + bytes([gwhere, uwhere, skip, pre, post]) + u16(gsel) + u16(usel) + bytes([ysel])
            + odd_byte(type, odd))


def rope(B, S, H, D, rsel=0, rv=0, layout=0, style=0, ss=0, max_pos=64, pos_mode=0,
         cache_mode=0, alias=0, where=0, skip=0, dsel=0, start=0, pool="none", isa=0,
         shape_mode=1, type="f32", odd=0):
    mp = (max_pos << 3) | 1  # a multiple of 8 would mean max_position 0
    return (header("rope", pool, isa, type)
            + bytes([shape_mode, B, S, H, D, rsel, rv, layout, style, ss, 0])
            + u16(mp) + bytes([pos_mode, cache_mode, alias, where, skip]) + u16(dsel)
            + u64((start + 1) << 8) + bytes([4, 4]) + odd_byte(type, odd))


def rope_cache(max_pos, rotary_dim, mode=0, where=0, theta_sel=1):
    return (header("rope_cache") + u16(max_pos) + bytes([1, rotary_dim // 2, mode, where, 0])
            + u16(0) + u64(theta_sel))


API = {
    "erf_n37_x_at_guard": elementwise("erf", 37),
    # ISA 1 is avx2 where avx512 runs too: a tail between canaries, and at a guard page
    "erf_n13_isa1": elementwise("erf", 13, isa=1),
    "tanh_n13_isa1_y_at_guard": elementwise("tanh", 13, isa=1, post=0),
    "tanh_n1": elementwise("tanh", 1, xwhere=1),
    "sigmoid_n100_misaligned": elementwise("sigmoid", 100, xwhere=2, skip=3),
    "silu_in_place_n64": elementwise("silu", 64, alias=3),
    "quick_gelu_partial_overlap": elementwise("quick_gelu", 64, alias=4, dsel=5),
    "gelu_adjacent_after": elementwise("gelu", 50, alias=5),
    "gelu_tanh_adjacent_before": elementwise("gelu_tanh", 50, alias=6),
    "gelu_x_null": elementwise("gelu", 10, alias=8),
    "erf_n0_y_null": elementwise("erf", 0, alias=9),
    "swish_big_3threads": elementwise("swish", 40000, pool="3threads", alpha=1.702),
    "gelu_big_host_pool_in_place": elementwise("gelu", 20000, alias=3, pool="host"),
    "tanh_big_1thread": elementwise("tanh", 30000, pool="1thread"),
    "sigmoid_big_2threads_misaligned": elementwise("sigmoid", 50002, xwhere=2, skip=5,
                                                   pool="2threads"),
    "bias_gelu_big_2threads_w299": elementwise("bias_gelu", 299 * 80, wsel=3, wv=298,
                                               pool="2threads"),
    "erf_huge_n": elementwise("erf", 0, huge=0),
    "sigmoid_wrapping_n": elementwise("sigmoid", 0, huge=2),
    "bias_gelu_w16": elementwise("bias_gelu", 64, wsel=3, wv=15),
    "bias_gelu_tanh_w7_in_place": elementwise("bias_gelu_tanh", 70, alias=3, wsel=3, wv=6),
    "bias_gelu_width0": elementwise("bias_gelu", 8, wsel=0),
    "bias_gelu_mismatch": elementwise("bias_gelu", 10, wsel=6, wv=2),
    "bias_gelu_bias_overlaps_y": elementwise("bias_gelu", 32, wsel=3, wv=7, bwhere=3, boff=12),
    "bias_gelu_bias_in_x": elementwise("bias_gelu", 32, wsel=3, wv=7, bwhere=2, boff=3),
    "rope_split_bshd": rope(2, 5, 3, 64, start=3),
    "rope_interleaved_bhsd_ids": rope(1, 7, 2, 32, layout=1, style=1, pos_mode=2),
    "rope_partial_rotary": rope(1, 4, 2, 48, rsel=2, rv=8, start=1),
    "rope_in_place_big_3threads": rope(3, 40, 8, 128, alias=2, pool="3threads", max_pos=128),
    "rope_out_of_range": rope(1, 9, 1, 16, max_pos=8, start=0),
    "rope_odd_rotary": rope(1, 2, 1, 16, rsel=4, rv=7),
    "rope_bad_layout": rope(1, 2, 1, 16, layout=250),
    "rope_old_struct_size": rope(1, 2, 1, 16, ss=0xFF),
    "rope_sin_overlaps_y": rope(1, 3, 2, 16, cache_mode=2, dsel=40),
    "rope_huge_batch": rope(1, 2, 1, 16, shape_mode=0xF0),
    # 16-bit types (odd: fuzz_api.c's ODD_* bits, arrays off the element grid)
    "f16_erf_n37_isa1_y_at_guard": elementwise("erf", 37, isa=1, post=0, type="f16"),
    "bf16_tanh_fast_n13_y_odd": elementwise("tanh/fast", 13, isa=1, type="bf16", odd=1),
    "f16_sigmoid_n100_x_odd": elementwise("sigmoid", 100, xwhere=2, skip=3, isa=2, type="f16",
                                          odd=2),
    "bf16_silu_in_place_odd": elementwise("silu", 64, alias=3, isa=2, type="bf16", odd=1),
    "f16_quick_gelu_fast_in_place_byte_off": elementwise("quick_gelu/fast", 64, alias=3,
                                                         isa=2, type="f16", odd=2),
    "bf16_gelu_adjacent_after": elementwise("gelu", 50, alias=5, isa=2, type="bf16"),
    "f16_gelu_tanh_adjacent_before": elementwise("gelu_tanh", 50, alias=6, isa=2, type="f16"),
    "f16_gelu_tanh_one_byte_overlap": elementwise("gelu_tanh/fast", 50, alias=6, type="f16",
                                                  odd=3),
    "f16_erf_y_null": elementwise("erf", 10, alias=9, isa=2, type="f16"),
    "bf16_gelu_x_null": elementwise("gelu/fast", 10, alias=8, type="bf16"),
    "bf16_swish_big_3threads": elementwise("swish", 40000, pool="3threads", alpha=-0.5,
                                           isa=2, type="bf16", odd=3),
    "f16_gelu_fast_big_host_in_place": elementwise("gelu/fast", 20000, alias=3, pool="host",
                                                   isa=2, type="f16", odd=1),
    "f16_erf_huge_n": elementwise("erf", 0, huge=0, type="f16"),
    "bf16_sigmoid_wrapping_n": elementwise("sigmoid/fast", 0, huge=2, type="bf16"),
    "bf16_bias_gelu_w16_bias_odd": elementwise("bias_gelu", 64, wsel=3, wv=15, isa=2,
                                               type="bf16", odd=8),
    "f16_bias_gelu_tanh_fast_bias_overlaps_y": elementwise(
        "bias_gelu_tanh/fast", 32, wsel=3, wv=7, bwhere=3, boff=12, type="f16"),
    "f16_bias_gelu_big_2threads_w299": elementwise("bias_gelu", 299 * 80, wsel=3, wv=298,
                                                   pool="2threads", isa=2, type="f16", odd=1),
    "f16_rope_split_bshd": rope(2, 5, 3, 64, start=3, isa=2, type="f16"),
    "bf16_rope_interleaved_partial_ids_odd": rope(1, 7, 2, 40, rsel=2, rv=12, style=1,
                                                  pos_mode=2, isa=2, type="bf16", odd=3),
    "bf16_rope_split_partial_bhsd": rope(2, 4, 3, 36, rsel=2, rv=10, layout=1, start=2,
                                         isa=2, type="bf16", odd=1),
    "f16_rope_in_place_big_2threads": rope(3, 40, 8, 128, alias=2, pool="2threads",
                                           max_pos=128, isa=2, type="f16"),
    "bf16_rope_sin_overlaps_y": rope(1, 3, 2, 16, cache_mode=2, dsel=40, type="bf16", odd=1),
    "f16_rope_adjacent_after_odd": rope(1, 3, 2, 16, alias=4, dsel=1, type="f16", odd=6),
    # gated ops: plain (gate, up), then packed (x = [rows, 2d])
    "swiglu_n37": gated("swiglu", 37),
    "bf16_swiglu_fast_in_place_up_odd": gated("swiglu/fast", 70, umode=3, isa=2, type="bf16",
                                              odd=1),
    "f16_geglu_in_place_gate": gated("geglu", 50, gmode=3, isa=1, type="f16"),
    "geglu_tanh_up_is_gate_big_2threads": gated("geglu_tanh", 20000, umode=8, usel=20000,
                                                pool="2threads"),
    "swiglu_up_overlaps_y": gated("swiglu", 40, umode=4, usel=9),
    "f16_swiglu_packed_7x33": gated("swiglu", rows=7, d=33, isa=1, type="f16", odd=2),
    "bf16_geglu_tanh_packed_fast_big_3threads": gated("geglu_tanh/fast", rows=16, d=4096,
                                                      pool="3threads", isa=2, type="bf16"),
    "geglu_packed_x_overlaps_y": gated("geglu/fast", rows=5, d=8, gmode=4, gsel=30),
    "swiglu_packed_huge_d": gated("swiglu", rows=1, huge=0),
    "rope_cache_64x32": rope_cache(64, 32),
    "rope_cache_sin_is_cos": rope_cache(16, 8, mode=3),
    "rope_cache_negative_theta": rope_cache(16, 8, theta_sel=3),
}

NAN_BITS = [0x7FC00000, 0xFFC00000, 0x7F800001, 0xFF812345, 0x7FA5A5A5]
BITS = {
    "specials": [float("inf"), float("-inf"), 0.0, -0.0, 1.0, -1.0],
    "tiny_and_huge": [1e-45, -1e-45, 1.1754942e-38, -1.1754944e-38, 3.4028235e38,
                      -3.4028235e38, 1e-20, -1e-20],
    "thresholds": [-88.0, 88.0, -104.0, 104.0, -193.5, 9.0, -9.0, 4.0, -4.0, 0.75, -0.649119616,
                   -29.9359951, 0.8784675, -46.8239288],
    "ramp17": [(-8.0 + i) * 0.37 for i in range(17)],
    "ramp40": [(-20.0 + i) * 1.1 for i in range(40)],
}


def main():
    api = os.path.join(HERE, "corpus", "fuzz_api")
    bits = os.path.join(HERE, "corpus", "fuzz_bits")
    for d in (api, bits):
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
    for name, b in API.items():
        with open(os.path.join(api, name), "wb") as f:
            f.write(b)
    for name, vals in BITS.items():
        with open(os.path.join(bits, name), "wb") as f:
            f.write(b"".join(f32(v) for v in vals))
    with open(os.path.join(bits, "nans"), "wb") as f:
        f.write(b"".join(u32(v) for v in NAN_BITS + [0x3F800000]))
    # swish's alpha is the first float: NaN, 0, -inf
    for name, alpha in (("swish_alpha_2", 0x40000000), ("swish_alpha_neg", 0xBF400000)):
        with open(os.path.join(bits, name), "wb") as f:
            f.write(u32(alpha) + b"".join(f32(v) for v in BITS["thresholds"]))
    print("wrote %d fuzz_api and %d fuzz_bits seeds" % (len(API), len(BITS) + 3))


if __name__ == "__main__":
    main()
