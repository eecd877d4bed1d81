//! The Icarus Verilog runner, for designs Verilator cannot simulate: the self-timed switch,
//! whose clock comes from a loop through a Muller-C element and wires with delays.
//!
//! In: Verilog-2005 design files and a Verilog testbench. Out: `iverilog -g2005 -Wall`
//! compiles them into `<work>/sim.vvp`; `vvp -n` runs it in `<work>`, where the testbench
//! reads and writes its files (and `wave.vcd`, which the testbench dumps itself). Output
//! goes to `compile.log` and `run.log` in the working directory.

use crate::sim::testbench::Language;
use crate::sim::{SimError, Simulator, first_error, run_logged};
use std::path::{Path, PathBuf};
use std::process::Command;

const NAME: &str = "icarus";

/// Icarus Verilog, run as the programs `iverilog` and `vvp` in `bin` (or from `PATH`).
#[derive(Debug, Clone)]
pub struct Icarus {
    pub iverilog: PathBuf,
    pub vvp: PathBuf,
}

impl Default for Icarus {
    fn default() -> Self {
        Icarus {
            iverilog: PathBuf::from("iverilog"),
            vvp: PathBuf::from("vvp"),
        }
    }
}

impl Icarus {
    fn missing(&self, exe: &Path) -> SimError {
        SimError::Missing {
            simulator: NAME,
            exe: exe.to_path_buf(),
            package: "iverilog",
        }
    }
}

/// Icarus reports problems as `file:line: error: ...`, `file:line: syntax error`, or
/// without a place (`N error(s) during elaboration.`); `$fatal` in a run prints `FATAL`.
fn is_error(line: &str) -> bool {
    line.contains("error") || line.contains("FATAL") || line.contains("warning")
}

impl Simulator for Icarus {
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
        _wave: bool,
    ) -> Result<(), SimError> {
        let log = work.join("compile.log");
        let mut command = Command::new(&self.iverilog);
        command
            .args([
                "-g2005",
                "-Wall",
                "-Wno-timescale",
                "-s",
                top,
                "-o",
                "sim.vvp",
            ])
            .args(sources);
        match run_logged(&mut command, work, &log)? {
            None => Err(self.missing(&self.iverilog)),
            // A warning is a failure too: the designs are meant to compile without one.
            Some(status) if status.success() && first_error(&log, is_error).is_empty() => Ok(()),
            Some(_) => Err(SimError::Compile {
                simulator: NAME,
                first: first_error(&log, is_error),
                log,
            }),
        }
    }

    fn simulate(&self, work: &Path, _top: &str, _wave: bool) -> Result<(), SimError> {
        let log = work.join("run.log");
        let mut command = Command::new(&self.vvp);
        command.args(["-n", "sim.vvp"]);
        match run_logged(&mut command, work, &log)? {
            None => Err(self.missing(&self.vvp)),
            Some(status) if status.success() && first_error(&log, is_error).is_empty() => Ok(()),
            Some(status) => Err(SimError::Run {
                simulator: NAME,
                status,
                first: first_error(&log, is_error),
                log,
            }),
        }
    }
}
