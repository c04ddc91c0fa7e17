//! Length checks the C API cannot make (it sees pointers, not slices).
use crate::Error;

pub(crate) fn same_len(expected: usize, got: usize) -> Result<(), Error> {
    if expected == got {
        Ok(())
    } else {
        Err(Error::Length { expected, got })
    }
}

/// rows of a packed [rows, 2d] input and its [rows, d] output.
#[allow(dead_code)] // used once the op table has a packed op
pub(crate) fn packed_rows(x_len: usize, y_len: usize, d: usize) -> Result<usize, Error> {
    same_len(y_len.checked_mul(2).ok_or(Error::TooLarge)?, x_len)?;
    if d == 0 {
        return if y_len == 0 { Ok(0) } else { Err(Error::Length { expected: 0, got: y_len }) };
    }
    if y_len % d != 0 {
        return Err(Error::Length { expected: (y_len / d + 1) * d, got: y_len });
    }
    Ok(y_len / d)
}
