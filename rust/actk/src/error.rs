//! Errors: the C library's status codes, and the Rust side's length check.
use std::fmt;
use std::os::raw::c_int;

use crate::sys;

/// Why a call failed; nothing was written.
///
/// ```
/// let x = [1.0f32; 6];
/// let mut y = [0.0f32; 6];
/// assert_eq!(actk::bias_gelu(&x, &[0.0; 4], &mut y), Err(actk::Error::WidthMismatch));
/// assert_eq!(actk::bias_gelu(&x, &[], &mut y), Err(actk::Error::ZeroWidth));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// A slice's length does not match the others' (checked in Rust).
    Length { expected: usize, got: usize },
    NullPointer,
    Overlap,
    TooLarge,
    ZeroWidth,
    WidthMismatch,
    UnsupportedIsa,
    InvalidArgument,
    OutOfMemory,
    NoThreads,
    OutOfRange,
    BadShape,
    /// A status this binding does not know (a newer library).
    Other(c_int),
}

impl Error {
    /// The C status of a library error; None for `Length`.
    pub fn status(&self) -> Option<c_int> {
        Some(match *self {
            Error::Length { .. } => return None,
            Error::NullPointer => sys::ACTK_ERR_NULL_POINTER,
            Error::Overlap => sys::ACTK_ERR_OVERLAP,
            Error::TooLarge => sys::ACTK_ERR_TOO_LARGE,
            Error::ZeroWidth => sys::ACTK_ERR_ZERO_WIDTH,
            Error::WidthMismatch => sys::ACTK_ERR_WIDTH_MISMATCH,
            Error::UnsupportedIsa => sys::ACTK_ERR_UNSUPPORTED_ISA,
            Error::InvalidArgument => sys::ACTK_ERR_INVALID_ARGUMENT,
            Error::OutOfMemory => sys::ACTK_ERR_OUT_OF_MEMORY,
            Error::NoThreads => sys::ACTK_ERR_NO_THREADS,
            Error::OutOfRange => sys::ACTK_ERR_OUT_OF_RANGE,
            Error::BadShape => sys::ACTK_ERR_BAD_SHAPE,
            Error::Other(s) => s,
        })
    }
}

/// ACTK_OK -> Ok, anything else -> its variant.
pub(crate) fn status(s: c_int) -> Result<(), Error> {
    Err(match s {
        sys::ACTK_OK => return Ok(()),
        sys::ACTK_ERR_NULL_POINTER => Error::NullPointer,
        sys::ACTK_ERR_OVERLAP => Error::Overlap,
        sys::ACTK_ERR_TOO_LARGE => Error::TooLarge,
        sys::ACTK_ERR_ZERO_WIDTH => Error::ZeroWidth,
        sys::ACTK_ERR_WIDTH_MISMATCH => Error::WidthMismatch,
        sys::ACTK_ERR_UNSUPPORTED_ISA => Error::UnsupportedIsa,
        sys::ACTK_ERR_INVALID_ARGUMENT => Error::InvalidArgument,
        sys::ACTK_ERR_OUT_OF_MEMORY => Error::OutOfMemory,
        sys::ACTK_ERR_NO_THREADS => Error::NoThreads,
        sys::ACTK_ERR_OUT_OF_RANGE => Error::OutOfRange,
        sys::ACTK_ERR_BAD_SHAPE => Error::BadShape,
        other => Error::Other(other),
    })
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (*self, self.status()) {
            (Error::Length { expected, got }, _) => {
                write!(f, "actk: slice length {got}, expected {expected}")
            }
            (_, None) => unreachable!(),
            // actk_status_string: static text, never NULL
            (_, Some(s)) => {
                let text = unsafe { std::ffi::CStr::from_ptr(sys::actk_status_string(s)) };
                write!(f, "actk: {}", text.to_string_lossy())
            }
        }
    }
}

impl std::error::Error for Error {}
