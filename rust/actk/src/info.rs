//! Library facts: version, active instruction set.
use std::ffi::CStr;

use crate::sys;

/// The loaded library's ACTK_VERSION (major * 10000 + minor * 100 + patch).
///
/// ```
/// assert!(actk::version() >= 100);
/// println!("actk {} on {}", actk::version_string(), actk::isa_name());
/// ```
pub fn version() -> u32 {
    unsafe { sys::actk_version() }
}

fn text(p: *const std::os::raw::c_char) -> &'static str {
    // the library's strings are static, NUL-terminated ASCII
    if p.is_null() {
        return "";
    }
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

pub fn version_string() -> &'static str {
    text(unsafe { sys::actk_version_string() })
}

/// The active instruction-set arm: "scalar", "avx2", "avx512", "neon".
pub fn isa_name() -> &'static str {
    text(unsafe { sys::actk_isa_name(sys::actk_isa_active()) })
}

/// Why dispatch chose it.
pub fn isa_reason() -> &'static str {
    text(unsafe { sys::actk_isa_reason() })
}
