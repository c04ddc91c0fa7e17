//! Links libactk. Default: build the bundled C sources (this repository,
//! ../..) with the system `cmake` into OUT_DIR and link the static library.
//! CMake, not the `cc` crate, because the library compiles each ISA's file
//! with its own target flags (CMakeLists.txt is the one place that says how).
//! Opt-in: the installed library through pkg-config (actk.pc), with the
//! `system` feature or ACTK_SYS_USE_PKG_CONFIG=1.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=ACTK_SYS_USE_PKG_CONFIG");
    let want_pc = env::var_os("CARGO_FEATURE_SYSTEM").is_some()
        || env::var("ACTK_SYS_USE_PKG_CONFIG").map_or(false, |v| v == "1");
    if want_pc {
        // A missing actk.pc is an error, not a silent fallback: the user asked for it.
        if let Err(e) = pkg_config::Config::new().probe("actk") {
            panic!("actk-sys: pkg-config cannot find actk ({e}); install actk or unset ACTK_SYS_USE_PKG_CONFIG");
        }
        return;
    }
    build_bundled();
}

fn build_bundled() {
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.join("../..").canonicalize().expect("actk-sys: the repository root");
    for p in ["CMakeLists.txt", "cmake", "include", "src"] {
        println!("cargo:rerun-if-changed={}", root.join(p).display());
    }
    let build = PathBuf::from(env::var_os("OUT_DIR").unwrap()).join("actk-build");
    let jobs = env::var("NUM_JOBS").unwrap_or_else(|_| "2".into());
    // Only the library; no libcpuid (it names the CPU brand only), so the
    // static link needs nothing past libm and pthreads.
    run(Command::new("cmake")
        .arg("-S")
        .arg(&root)
        .arg("-B")
        .arg(&build)
        .args([
            "-DCMAKE_BUILD_TYPE=Release",
            "-DACTK_BUILD_TESTS=OFF",
            "-DACTK_BUILD_BENCH=OFF",
            "-DACTK_BUILD_TOOLS=OFF",
            "-DACTK_INSTALL=OFF",
            "-DACTK_WITH_LIBCPUID=OFF",
        ]));
    run(Command::new("cmake")
        .arg("--build")
        .arg(&build)
        .args(["--target", "actk_static", "-j", &jobs]));
    println!("cargo:rustc-link-search=native={}", build.display());
    println!("cargo:rustc-link-lib=static=actk");
    println!("cargo:rustc-link-lib=dylib=m");
    println!("cargo:rustc-link-lib=dylib=pthread");
    println!("cargo:include={}", root.join("include").display());
}

fn run(cmd: &mut Command) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("actk-sys: cannot run {cmd:?}: {e} (is cmake installed?)"));
    assert!(status.success(), "actk-sys: {cmd:?} failed: {status}");
}
