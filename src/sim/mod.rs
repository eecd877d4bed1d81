//! Simulation of generated designs against their golden models, in Verilator, GHDL and
//! Icarus Verilog.
//!
//! Three families of units share one testbench per language each and one comparison with
//! the golden model each: [`function`] units (an answer per input), [`sequence`] units
//! (items handed out one per request), whose vectors' [`outcome`]s make their reports,
//! and [`stream`] units (every output in every cycle);
//! [`self_timed`] wires self-timed nodes with a delay per wire ([`delays`]). A
//! [`Simulator`] ([`verilator`], [`ghdl`], [`icarus`]) compiles a testbench with the design
//! once, in a temporary directory, then runs it; [`export`] writes the same testbenches in
//! their self-checking mode for a design directory.

pub mod bits;
pub mod delays;
pub mod export;
pub mod function;
pub mod ghdl;
pub mod icarus;
pub mod outcome;
pub mod self_timed;
pub mod sequence;
pub mod stream;
pub mod testbench;
pub mod vectors;
pub mod verilator;
pub mod words;

use crate::sim::sequence::ResultsError;
use crate::sim::testbench::{Language, TestbenchError};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use thiserror::Error;

/// Prints `design` in `language` and writes its HDL files (not the manifest or the
/// FuseSoC core) into `work`, flat; returns their paths in compile order. `describe` names
/// the design in the files' headers and in errors.
pub(crate) fn write_sources(
    design: &crate::rtl::ir::Design,
    language: Language,
    describe: &str,
    work: &Path,
) -> Result<Vec<PathBuf>, SimError> {
    let provenance = crate::emit::Provenance {
        command: format!("verification of {describe}"),
    };
    let (files, manifest) =
        crate::emit::render(design, &[language], &provenance).map_err(|e| SimError::Io {
            what: format!("cannot print {describe}: {e}"),
            cause: io::ErrorKind::InvalidInput.into(),
        })?;
    let hdl = |f: &&crate::emit::GeneratedFile| {
        manifest.verilog.contains(&f.path) || manifest.vhdl.contains(&f.path)
    };
    let mut sources = Vec::new();
    for file in files.iter().filter(hdl) {
        let path = work.join(file.path.replace('/', "_"));
        std::fs::write(&path, &file.text)
            .map_err(SimError::io(format!("cannot write {}", path.display())))?;
        sources.push(path);
    }
    Ok(sources)
}

/// Copies the waves a run with `wave` dumped in `work` (`wave.vcd`) to `to`.
pub(crate) fn copy_wave(work: &Path, to: &Path) -> Result<(), SimError> {
    let from = work.join("wave.vcd");
    crate::output::file::write_with(to, |out| {
        std::io::copy(&mut std::fs::File::open(&from)?, out)
    })
    .map_err(|e| SimError::Io {
        what: format!("cannot copy {} to {}", from.display(), to.display()),
        cause: std::io::Error::other(e),
    })?;
    Ok(())
}

/// Failures `kautzgen verify` and every exported testbench print in full: the rest are
/// counted.
pub const SHOWN_BY_VERIFY: usize = 10;

/// What went wrong running a simulator; a mismatch is not an error but a failed vector.
#[derive(Debug, Error)]
pub enum SimError {
    #[error(
        "{simulator} is not installed (could not run '{exe}'); install it with `apt-get install {package}`, or `make deps`",
        exe = exe.display()
    )]
    Missing {
        simulator: &'static str,
        exe: PathBuf,
        package: &'static str,
    },
    #[error(
        "{simulator} could not compile the design and testbench{first}; full log kept in {}",
        log.display()
    )]
    Compile {
        simulator: &'static str,
        /// The first error line of the log, as `: <line>`, or empty.
        first: String,
        log: PathBuf,
    },
    #[error(
        "{simulator} simulation failed ({status}){first}; full log kept in {}",
        log.display()
    )]
    Run {
        simulator: &'static str,
        status: ExitStatus,
        first: String,
        log: PathBuf,
    },
    #[error("{simulator}: {cause}; files kept in {}", dir.display())]
    Results {
        simulator: &'static str,
        cause: ResultsError,
        dir: PathBuf,
    },
    #[error("the design's manifest lists no {0} files")]
    NoSources(&'static str),
    #[error(transparent)]
    Testbench(#[from] TestbenchError),
    #[error("{what}: {cause}")]
    Io { what: String, cause: io::Error },
}

impl SimError {
    /// Whether the error points at files kept for inspection (logs, the working directory).
    pub fn keeps_files(&self) -> bool {
        matches!(
            self,
            SimError::Compile { .. } | SimError::Run { .. } | SimError::Results { .. }
        )
    }

    fn io(what: impl Into<String>) -> impl FnOnce(io::Error) -> SimError {
        let what = what.into();
        move |cause| SimError::Io { what, cause }
    }
}

/// One simulator: compiles a testbench with the design, then runs it on vector batches.
/// Everything happens in a working directory the caller owns.
pub trait Simulator {
    /// Name in reports and messages.
    fn name(&self) -> &'static str;
    /// The language of the design files and testbench it compiles.
    fn language(&self) -> Language;
    /// Compiles `sources`, in order (design files, then the testbench), into `work`; the
    /// testbench's top is `top`; with `wave` the run dumps `work/wave.vcd`.
    fn compile(
        &self,
        work: &Path,
        sources: &[PathBuf],
        top: &str,
        wave: bool,
    ) -> Result<(), SimError>;
    /// Runs the compiled testbench in `work`: `vectors.txt` in, `results.txt` out.
    fn simulate(&self, work: &Path, top: &str, wave: bool) -> Result<(), SimError>;
}

/// Runs `command` in `dir` with its output appended to `log`. `Ok(None)` when the program
/// does not exist, so the caller can name the package to install.
fn run_logged(
    command: &mut Command,
    dir: &Path,
    log: &Path,
) -> Result<Option<ExitStatus>, SimError> {
    let file = File::options()
        .create(true)
        .append(true)
        .open(log)
        .map_err(SimError::io(format!("cannot open {}", log.display())))?;
    let stderr = file
        .try_clone()
        .map_err(SimError::io(format!("cannot open {}", log.display())))?;
    // The tool's own temporaries (the C++ compiler's) go in the work directory, which a
    // signal removes.
    let status = crate::interrupt::child::status(
        command
            .current_dir(dir)
            .env("TMPDIR", dir)
            .stdin(Stdio::null())
            .stdout(file)
            .stderr(stderr),
    );
    match status {
        Ok(status) => Ok(Some(status)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(SimError::io(format!(
            "cannot run {:?}",
            command.get_program()
        ))(e)),
    }
}

/// The first line of `log` that `is_error` picks, as ": <line>" for a message, or empty.
fn first_error(log: &Path, is_error: impl Fn(&str) -> bool) -> String {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .find(|line| is_error(line))
        .map(|line| format!(": {}", line.trim()))
        .unwrap_or_default()
}
