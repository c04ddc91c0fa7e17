//! Rotary position embedding (include/actk.h, "rotary position embedding").
use crate::check::same_len;
use crate::error::status;
use crate::{sys, Call, Element, Error};

/// Memory layout of x and y.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// `x[b][s][h][d]`, also `[B, S, H*D]`
    #[default]
    Bshd,
    /// `x[b][h][s][d]`
    Bhsd,
}

/// Which channels pair up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Style {
    /// GPT-NeoX / Llama: (j, j + rotary_dim/2)
    #[default]
    SplitHalf,
    /// GPT-J: (2j, 2j + 1)
    Interleaved,
}

/// A RoPE shape (actk_rope_desc without its positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rope {
    pub batch: usize,
    pub seq_len: usize,
    pub heads: usize,
    pub head_size: usize,
    /// even, <= head_size; 0 means head_size (channels past it are copied)
    pub rotary_dim: usize,
    pub layout: Layout,
    pub style: Style,
    /// rows of the cos and sin caches
    pub max_position: usize,
}

/// Each token's position: `start + s`, or one id per token (`[batch][seq_len]`).
#[derive(Clone, Copy, Debug)]
pub enum Positions<'a> {
    Start(i64),
    Ids(&'a [i64]),
}

impl Rope {
    /// The sizes the slices must have: (x and y, cache, position ids), checked
    /// in the C library's order (shape, then overflow).
    fn sizes(&self) -> Result<(usize, usize, usize), Error> {
        let rd = if self.rotary_dim == 0 { self.head_size } else { self.rotary_dim };
        if rd % 2 != 0 || rd > self.head_size {
            return Err(Error::BadShape);
        }
        let mul = |a: usize, b: usize| a.checked_mul(b).ok_or(Error::TooLarge);
        let tokens = mul(self.batch, self.seq_len)?;
        let elements = mul(mul(tokens, self.heads)?, self.head_size)?;
        let cache = mul(self.max_position, rd / 2)?;
        Ok((elements, cache, tokens))
    }

    fn desc(&self, start: i64) -> sys::actk_rope_desc {
        sys::actk_rope_desc {
            batch: self.batch,
            seq_len: self.seq_len,
            heads: self.heads,
            head_size: self.head_size,
            rotary_dim: self.rotary_dim,
            layout: match self.layout {
                Layout::Bshd => sys::ACTK_ROPE_BSHD,
                Layout::Bhsd => sys::ACTK_ROPE_BHSD,
            },
            style: match self.style {
                Style::SplitHalf => sys::ACTK_ROPE_SPLIT_HALF,
                Style::Interleaved => sys::ACTK_ROPE_INTERLEAVED,
            },
            max_position: self.max_position,
            position_start: start,
            ..sys::actk_rope_desc::default()
        }
    }

    /// Checks every slice against the shape; the raw desc and ids pointer.
    fn prepare<T>(&self, x_len: usize, positions: Positions<'_>, cos: &[f32], sin: &[f32], y_len: usize)
        -> Result<(sys::actk_rope_desc, *const i64), Error> {
        let (elements, cache, tokens) = self.sizes()?;
        same_len(elements, x_len)?;
        same_len(elements, y_len)?;
        same_len(cache, cos.len())?;
        same_len(cache, sin.len())?;
        Ok(match positions {
            Positions::Start(s) => (self.desc(s), std::ptr::null()),
            Positions::Ids(ids) => {
                same_len(tokens, ids.len())?;
                (self.desc(0), ids.as_ptr())
            }
        })
    }
}

impl<'p> Call<'p> {
    /// RoPE of x into y on this call's pool (RoPE has one tier).
    pub fn rope<T: Element>(&self, shape: &Rope, x: &[T], positions: Positions<'_>, cos: &[f32], sin: &[f32],
                            y: &mut [T]) -> Result<(), Error> {
        let (d, ids) = shape.prepare::<T>(x.len(), positions, cos, sin, y.len())?;
        status(unsafe { T::raw_rope(self.pool, &d, x.as_ptr(), ids, cos.as_ptr(), sin.as_ptr(), y.as_mut_ptr()) })
    }

    /// RoPE in place.
    pub fn rope_inplace<T: Element>(&self, shape: &Rope, xy: &mut [T], positions: Positions<'_>, cos: &[f32],
                                    sin: &[f32]) -> Result<(), Error> {
        let (d, ids) = shape.prepare::<T>(xy.len(), positions, cos, sin, xy.len())?;
        let p = xy.as_mut_ptr();
        status(unsafe { T::raw_rope(self.pool, &d, p, ids, cos.as_ptr(), sin.as_ptr(), p) })
    }
}

/// RoPE of x into y on the calling thread.
///
/// ```
/// use actk::{Positions, Rope};
/// let shape = Rope { batch: 1, seq_len: 3, heads: 2, head_size: 8, max_position: 16, ..Rope::default() };
/// let (mut cos, mut sin) = (vec![0.0; 16 * 4], vec![0.0; 16 * 4]);
/// actk::rope_cache(&mut cos, &mut sin, 16, 8, 10000.0)?;
/// let x = vec![1.0f32; 3 * 2 * 8];
/// let mut y = vec![0.0f32; x.len()];
/// actk::rope(&shape, &x, Positions::Start(5), &cos, &sin, &mut y)?;
/// actk::rope(&shape, &x, Positions::Ids(&[0, 1, 2]), &cos, &sin, &mut y)?;
/// assert_eq!(actk::rope(&shape, &x, Positions::Start(15), &cos, &sin, &mut y), Err(actk::Error::OutOfRange));
/// # Ok::<(), actk::Error>(())
/// ```
pub fn rope<T: Element>(shape: &Rope, x: &[T], positions: Positions<'_>, cos: &[f32], sin: &[f32], y: &mut [T])
    -> Result<(), Error> {
    Call::new().rope(shape, x, positions, cos, sin, y)
}

/// RoPE in place on the calling thread.
pub fn rope_inplace<T: Element>(shape: &Rope, xy: &mut [T], positions: Positions<'_>, cos: &[f32], sin: &[f32])
    -> Result<(), Error> {
    Call::new().rope_inplace(shape, xy, positions, cos, sin)
}

/// cos and sin caches [max_position][rotary_dim / 2] for angles
/// p * theta^(-2j / rotary_dim) (theta 0: 10000).
pub fn rope_cache(cos: &mut [f32], sin: &mut [f32], max_position: usize, rotary_dim: usize, theta: f64)
    -> Result<(), Error> {
    if rotary_dim == 0 || rotary_dim % 2 != 0 {
        return Err(Error::BadShape);
    }
    let n = max_position.checked_mul(rotary_dim / 2).ok_or(Error::TooLarge)?;
    same_len(n, cos.len())?;
    same_len(n, sin.len())?;
    status(unsafe { sys::actk_rope_cache_f32(cos.as_mut_ptr(), sin.as_mut_ptr(), max_position, rotary_dim, theta) })
}
