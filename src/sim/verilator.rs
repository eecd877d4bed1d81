//! The Verilator runner.
//!
//! In: Verilog design files and the Verilog testbench. Out: a model binary built with
//! `verilator --binary --timing` in `<work>/obj`, and its runs in `<work>`, which read
//! `vectors.txt` and write `results.txt` (and `wave.vcd`, built with `--trace`). Output goes
//! to `compile.log` and `run.log` in the working directory.

use crate::sim::testbench::Language;
use crate::sim::{SimError, Simulator, first_error, run_logged};
use std::path::{Path, PathBuf};
use std::process::Command;

const NAME: &str = "verilator";

/// Verilator, run as the program `exe`.
#[derive(Debug, Clone)]
pub struct Verilator {
    pub exe: PathBuf,
}

impl Default for Verilator {
    fn default() -> Self {
        Verilator {
            exe: PathBuf::from("verilator"),
        }
    }
}

impl Verilator {
    fn missing(&self) -> SimError {
        SimError::Missing {
            simulator: NAME,
            exe: self.exe.clone(),
            package: "verilator",
        }
    }
}

impl Simulator for Verilator {
    fn name(&self) -> &'static str {
        NAME
    }

    fn language(&self) -> Language {
        Language::Verilog
    }

    fn compile(
        &self,
        work: &Path,
        sources: &[PathBuf],
        top: &str,
        wave: bool,
    ) -> Result<(), SimError> {
        let log = work.join("compile.log");
        let mut command = Command::new(&self.exe);
        // Warnings are the design's lint, which is not what this run checks: they stay in
        // the log without stopping the build.
        command
            .args(["--binary", "--timing", "-Wno-fatal", "--top-module", top])
            .args(["-Mdir", "obj", "-o", "sim"])
            // One C++ file for the whole design instead of one per module and part: each
            // file costs about a second of parsing Verilator's headers, so a network's
            // 20-odd files take 20 s to compile where the one takes 5.
            .args(["-MAKEFLAGS", "VM_PARALLEL_BUILDS=0"]);
        if wave {
            command.arg("--trace");
        }
        command.args(sources);
        if let Some(cache) = object_cache() {
            command.env("OBJCACHE", cache);
        }
        match run_logged(&mut command, work, &log)? {
            None => Err(self.missing()),
            Some(status) if status.success() => Ok(()),
            Some(_) => Err(SimError::Compile {
                simulator: NAME,
                first: first_error(&log, |line| line.starts_with("%Error")),
                log,
            }),
        }
    }

    fn simulate(&self, work: &Path, _top: &str, _wave: bool) -> Result<(), SimError> {
        let log = work.join("run.log");
        let mut command = Command::new(work.join("obj").join("sim"));
        match run_logged(&mut command, work, &log)? {
            Some(status) if status.success() => Ok(()),
            Some(status) => Err(SimError::Run {
                simulator: NAME,
                status,
                first: first_error(&log, |line| line.starts_with('%')),
                log,
            }),
            None => Err(SimError::Io {
                what: format!(
                    "the model binary {} vanished",
                    work.join("obj/sim").display()
                ),
                cause: std::io::ErrorKind::NotFound.into(),
            }),
        }
    }
}

/// ccache for the C++ that Verilator writes, when the user has not chosen an `OBJCACHE`
/// and ccache is on the `PATH`: Verilator's runtime (verilated.cpp and the rest), the bulk
/// of every build, is then compiled once for every design, and a build takes about a
/// quarter of the time (docs/verification.md).
fn object_cache() -> Option<&'static str> {
    if std::env::var_os("OBJCACHE").is_some() {
        return None;
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .any(|dir| dir.join("ccache").is_file())
        .then_some("ccache")
}
