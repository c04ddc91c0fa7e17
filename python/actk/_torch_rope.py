"""RoPE as torch.library ops: torch.ops.actk.rope, rope_ (in place), rope.out and
rope_cache over actk_rope_<type> and actk_rope_cache_f32 (the numpy binding's actk.rope
and actk.rope_cache, on tensors). The shapes are actk.rope's: x [batch, seq, heads,
head_size] ("bshd"), [batch, heads, seq, head_size] ("bhsd") or [batch, seq, heads *
head_size] with heads= ("bshd"); cos and sin float32 [max_position, rotary_dim / 2];
positions None or int64 [batch, seq]. Every tensor is used where it is: no hidden copies.
actk.torch calls define() once, with its shared checks."""
import ctypes

import torch

import actk as _actk

_ARGS = ("Tensor cos, Tensor sin, Tensor? positions=None, int start=0, str layout=\"bshd\", "
         "str style=\"split_half\", int rotary_dim=0, int? heads=None")
_TYPES = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16"}
_LAYOUTS = {"bshd": _actk.Layout.BSHD, "bhsd": _actk.Layout.BHSD}
_STYLES = {"split_half": _actk.Style.SPLIT_HALF, "interleaved": _actk.Style.INTERLEAVED}


def _cache_check(c, name):
    if c.device.type not in ("cpu", "meta"):
        raise RuntimeError("actk::rope: %s must be on the CPU" % name)
    if c.dtype != torch.float32:
        raise TypeError("actk::rope: %s must be float32 in every type of x (actk.torch.rope_cache "
                        "makes it), got %s" % (name, c.dtype))
    if c.dim() != 2 or not c.is_contiguous():
        raise RuntimeError("actk::rope: %s must be a contiguous [max_position, rotary_dim / 2] "
                           "tensor, got sizes %s strides %s" % (name, list(c.shape), list(c.stride())))


def define(define_op, check_input, check_out, run, pool):
    """Defines the four ops with define_op(schema, kernel, fake) (actk.torch's: the kernel,
    the fake and the autograd refusal) and returns the functions rope, rope_, rope_cache."""

    def check(x, cos, sin, positions, start, layout, style, rotary_dim, heads):
        """actk.rope's checks (numpy), on tensors; the C call checks the rest (rotary_dim
        even and <= head_size, the positions' range) and writes nothing when it refuses.
        Returns the descriptor."""
        check_input("rope", x)
        if not x.is_contiguous():
            raise RuntimeError("actk::rope: x must be contiguous, got strides %s: actk makes no "
                               "hidden copies, pass x.contiguous()" % (list(x.stride()),))
        if layout not in _LAYOUTS:
            raise ValueError('actk::rope: layout must be "bshd" or "bhsd", got "%s"' % layout)
        if style not in _STYLES:
            raise ValueError('actk::rope: style must be "split_half" or "interleaved", got "%s"'
                             % style)
        if rotary_dim < 0:
            raise ValueError("actk::rope: rotary_dim must be >= 0, got %d" % rotary_dim)
        if heads is not None and heads < 1:
            raise ValueError("actk::rope: heads must be >= 1, got %d" % heads)
        bhsd = layout == "bhsd"
        if x.dim() == 4:
            b, d = x.shape[0], x.shape[3]
            s, h = (x.shape[2], x.shape[1]) if bhsd else (x.shape[1], x.shape[2])
            if heads is not None and heads != h:
                raise ValueError("actk::rope: heads=%d does not match x's sizes %s"
                                 % (heads, list(x.shape)))
        elif x.dim() == 3 and not bhsd and heads is not None:
            b, s, h = x.shape[0], x.shape[1], heads
            if x.shape[2] % h:
                raise ValueError("actk::rope: x's last dimension %d is not a multiple of heads=%d"
                                 % (x.shape[2], h))
            d = x.shape[2] // h
        else:
            raise ValueError("actk::rope: x must be [batch, seq, heads, head_size] (bshd), [batch, "
                             "heads, seq, head_size] (bhsd), or [batch, seq, heads*head_size] with "
                             "heads= (bshd); got sizes %s" % (list(x.shape),))
        _cache_check(cos, "cos")
        _cache_check(sin, "sin")
        if cos.shape != sin.shape:
            raise ValueError("actk::rope: cos and sin must have the same sizes, got %s and %s"
                             % (list(cos.shape), list(sin.shape)))
        rd = rotary_dim if rotary_dim else d
        if rd % 2 == 0 and rd <= d and cos.shape[1] != rd // 2:
            raise ValueError("actk::rope: cos/sin have %d columns, rotary_dim %d needs %d"
                             % (cos.shape[1], rd, rd // 2))
        if positions is not None:
            p = positions
            if p.device.type not in ("cpu", "meta"):
                raise RuntimeError("actk::rope: positions must be on the CPU")
            if p.dtype != torch.int64:
                raise TypeError("actk::rope: positions must be int64, got %s" % p.dtype)
            if not p.is_contiguous():
                raise RuntimeError("actk::rope: positions must be contiguous")
            if not ((p.dim() == 2 and tuple(p.shape) == (b, s))
                    or (p.dim() == 1 and p.numel() == b * s)):
                raise ValueError("actk::rope: positions must be [batch, seq] = [%d, %d], got %s"
                                 % (b, s, list(p.shape)))
        desc = _actk._RopeDesc()  # as the header's inline actk_rope_desc_init: zeros, then
        desc.struct_size = ctypes.sizeof(_actk._RopeDesc)
        desc.batch, desc.seq_len, desc.heads, desc.head_size = b, s, h, d
        desc.rotary_dim = rotary_dim
        desc.layout, desc.style = _LAYOUTS[layout], _STYLES[style]
        desc.max_position = cos.shape[0]
        desc.position_start = start
        return desc

    def call(x, cos, sin, positions, desc, y):
        pos = None if positions is None else positions.data_ptr()
        run("rope", _actk._ROPE[_TYPES[x.dtype]](pool(), ctypes.byref(desc), x.data_ptr(), pos,
                                                  cos.data_ptr(), sin.data_ptr(), y))

    def k_new(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half",
              rotary_dim=0, heads=None):
        desc = check(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
        y = torch.empty_like(x)
        call(x, cos, sin, positions, desc, y.data_ptr())
        return y

    def k_inplace(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half",
                  rotary_dim=0, heads=None):
        desc = check(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
        call(x, cos, sin, positions, desc, x.data_ptr())
        return x

    def k_out(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half",
              rotary_dim=0, heads=None, *, out):
        desc = check(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
        check_out("rope", x, out)
        call(x, cos, sin, positions, desc, out.data_ptr())
        return out

    def f_new(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half",
              rotary_dim=0, heads=None):
        check(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
        return torch.empty_like(x)

    def f_inplace(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half",
                  rotary_dim=0, heads=None):
        check(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
        return x

    def f_out(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half",
              rotary_dim=0, heads=None, *, out):
        check(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
        check_out("rope", x, out)
        return out

    def cache_sizes(max_position, rotary_dim):
        if max_position < 0 or rotary_dim < 0:
            raise ValueError("actk::rope_cache: max_position and rotary_dim must be >= 0, got %d "
                             "and %d" % (max_position, rotary_dim))
        return [max_position, rotary_dim // 2]

    def k_cache(max_position, rotary_dim, theta=10000.0):
        sizes = cache_sizes(max_position, rotary_dim)
        cos, sin = torch.empty(sizes), torch.empty(sizes)
        st = _actk._rope_cache(cos.data_ptr(), sin.data_ptr(), max_position, rotary_dim, theta)
        if st:
            raise RuntimeError("actk::rope_cache: rotary_dim %d, theta %r: %s"
                               % (rotary_dim, theta, _actk.status_string(st)))
        return cos, sin

    def f_cache(max_position, rotary_dim, theta=10000.0):
        sizes = cache_sizes(max_position, rotary_dim)
        return torch.empty(sizes), torch.empty(sizes)

    for schema, k, f in (
            ("rope(Tensor x, %s) -> Tensor" % _ARGS, k_new, f_new),
            ("rope_(Tensor(a!) x, %s) -> ()" % _ARGS, k_inplace, f_inplace),
            ("rope.out(Tensor x, %s, *, Tensor(a!) out) -> ()" % _ARGS, k_out, f_out),
            ("rope_cache(int max_position, int rotary_dim, float theta=10000.0) -> (Tensor, Tensor)",
             k_cache, f_cache)):
        define_op(schema, k, f)

    ns = torch.ops.actk

    def rope(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half", rotary_dim=0,
             heads=None, out=None):
        """Rotary position embedding (torch.ops.actk.rope; actk_rope_<type>, ONNX Runtime
        RotaryEmbedding semantics). x: contiguous float32, float16 or bfloat16, [batch, seq,
        heads, head_size] ("bshd"), [batch, heads, seq, head_size] ("bhsd") or [batch, seq,
        heads * head_size] with heads= ("bshd"). cos, sin: float32 [max_position, rotary_dim
        / 2] (rope_cache()). positions: None (token s at start + s) or int64 [batch, seq].
        style: "split_half" or "interleaved". rotary_dim 0 means head_size; channels past it
        are copied. A position outside [0, max_position) is a RuntimeError and nothing is
        written."""
        if out is None:
            return ns.rope(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
        ns.rope.out(x, cos, sin, positions, start, layout, style, rotary_dim, heads, out=out)
        return out

    def rope_(x, cos, sin, positions=None, start=0, layout="bshd", style="split_half",
              rotary_dim=0, heads=None):
        """rope in place (torch.ops.actk.rope_): returns x."""
        ns.rope_(x, cos, sin, positions, start, layout, style, rotary_dim, heads)
        return x

    def rope_cache(max_position, rotary_dim, theta=10000.0):
        """(cos, sin), float32 [max_position, rotary_dim / 2], for angles p * theta^(-2j /
        rotary_dim), computed in double and rounded once (torch.ops.actk.rope_cache;
        actk_rope_cache_f32)."""
        return ns.rope_cache(max_position, rotary_dim, theta)

    return rope, rope_, rope_cache
