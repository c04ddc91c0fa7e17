/* Software pipelining of a staged kernel (src/ops.toml's stages): its math in two halves,
 * <st>_head(vf x) -> <st>_mid and <st>_tail(<st>_mid) -> vf, the head of each vector run one
 * step before the tail of the one before it. For src/kernels/instantiate.h's loops (and
 * bench/research/actk_gelu_pieces), after the arm's vec_<isa>.h. */
#ifndef ACTK_KERNELS_PIPE_LOOP_H
#define ACTK_KERNELS_PIPE_LOOP_H

/* Whether a type's staged loops are pipelined (ACTK_PIPE_<type> of the vector contract: AVX2's
 * f32). Pipelined, the out-of-order window holds each vector's long chain half done, where with
 * the whole kernel per step its late operations wait there behind their inputs (fast gelu on
 * Zen 4, docs/performance.md). Each element takes the same operations in either loop. */
#ifndef ACTK_PIPE_f32
#define ACTK_PIPE_f32 0
#endif
#ifndef ACTK_PIPE_f16
#define ACTK_PIPE_f16 0
#endif
#ifndef ACTK_PIPE_bf16
#define ACTK_PIPE_bf16 0
#endif
#define ACTK_PIPE(type) ACTK_PIPE_##type

/* Whole vectors of a staged kernel from index i while ACTK_PIPE(type): the head of the vector
 * at i (load, an expression in i) before the tail of the one before it, stored as
 * fin(tail, k, type) for the vector at k (ACTK_PIPE_AS_IS, or a gated kernel's product); i ends
 * at the first vector not done. */
#define ACTK_PIPE_LOOP(st, type, i, len, out, load, fin)                                           \
  if (ACTK_PIPE(type) && (i) + 2 * VLEN <= (len)) {                                                \
    st##_mid pipe_mid = st##_head(load);                                                           \
    for ((i) += VLEN; (i) + VLEN <= (len); (i) += VLEN) {                                          \
      st##_mid pipe_next = st##_head(load);                                                        \
      vf_store_##type##_q((out) + (i)-VLEN, fin(st##_tail(pipe_mid), (i)-VLEN, type));             \
      pipe_mid = pipe_next;                                                                        \
    }                                                                                              \
    vf_store_##type##_q((out) + (i)-VLEN, fin(st##_tail(pipe_mid), (i)-VLEN, type));               \
  }
#define ACTK_PIPE_AS_IS(v, k, type) (v)

#endif
