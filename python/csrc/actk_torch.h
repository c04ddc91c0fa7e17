// What the torch ops' files share (actk_torch.cc defines it): the element
// type of a tensor, the host pool over torch's threads, the checks every op
// makes of its tensors.
#ifndef ACTK_TORCH_H
#define ACTK_TORCH_H

#include <ATen/ATen.h>

#include "actk.h"

namespace actk_torch {

enum class Dt { f32, f16, bf16 };

// The actk pool for the current torch thread count (NULL at one thread or
// inside a torch parallel region: actk then runs on the caller).
actk_pool *torch_pool();
// x's element type; a TypeError for any other dtype.
Dt dtype_of(const char *op, const at::Tensor &x, const char *name);
// A RuntimeError if t requires grad while grad mode is on.
void check_grad(const char *op, const at::Tensor &t, const char *name);
// On the CPU, float32/float16/bfloat16, no grad, dense: its type.
Dt input(const char *op, const at::Tensor &x, const char *name = "x");
// out= of x: the same dtype, sizes and strides.
void check_out(const char *op, const at::Tensor &x, const at::Tensor &out);
// A RuntimeError naming the status unless st is ACTK_OK.
void check_status(const char *op, actk_status st);

} // namespace actk_torch

#endif
