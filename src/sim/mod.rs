//! Simulation of a generated route generator against the golden model.
//!
//! In: a design directory ([`Design`]: its `manifest.json` and HDL files), the vectors to
//! run ([`vectors::VectorSet`]) and a [`Simulator`]. Out: a [`compare::Report`]: vectors
//! passed and failed, the first failures in full, and the cycles per route set.
//!
//! Stages, data flowing one way: [`vectors`] derives stimulus and expected answers from the
//! golden model; [`testbench`] renders the testbench; a [`Simulator`] ([`verilator`],
//! [`ghdl`]) compiles it with the design once, in a temporary directory, then runs it batch
//! by batch; [`results`] parses what the testbench recorded; [`compare`] judges it. Only
//! one batch of vectors is in memory at a time.

pub mod bits;
pub mod compare;
pub mod delays;
pub mod export;
pub mod function;
pub mod ghdl;
pub mod hex;
pub mod icarus;
pub mod results;
pub mod ring;
pub mod self_timed;
pub mod sequence;
pub mod stream;
pub mod testbench;
pub mod units;
pub mod vectors;
pub mod verilator;
pub mod words;

use crate::emit::manifest::Manifest;
use crate::sim::compare::{Checker, Report};
use crate::sim::results::{End, Observed, ResultsError};
use crate::sim::testbench::{Language, TestbenchError, render, testbench_name};
use crate::sim::vectors::{Vector, VectorSet, Widths, stimulus_file};
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

/// Vectors per simulator run: large enough that process start-up is negligible, small
/// enough for the progress bar to move and memory to stay flat.
pub const BATCH: usize = 4096;

/// Failures printed in full per simulator; the rest are counted.
pub const SHOWN: usize = 5;

/// Failures `kautzgen verify` prints in full for the units other than the route generator,
/// and every exported testbench: the rest are counted.
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
        /// The first error line of the log, as ": <line>", or empty.
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

/// Generates the route generator of `params` (with `fault` built in, if any) in both
/// languages into a temporary directory, which lives as long as the returned handle.
pub fn scratch_design(
    params: &crate::rtl::kautz_route::RouteGenParams,
    fault: Option<crate::rtl::kautz_route::Fault>,
    provenance: &crate::emit::Provenance,
) -> Result<(Design, crate::interrupt::scratch::ScratchDir), DesignError> {
    let dir = crate::interrupt::scratch::ScratchDir::new("kautzgen-design-")
        .map_err(DesignError::Scratch)?;
    let path = dir.path().join("design");
    let design = crate::rtl::kautz_route::design_with_fault(params, fault);
    let languages = [Language::Verilog, Language::Vhdl];
    crate::emit::write_design(&path, &design, &languages, provenance)?;
    Ok((Design::load(&path)?, dir))
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

/// Why a design directory cannot be used.
#[derive(Debug, Error)]
pub enum DesignError {
    #[error(transparent)]
    Emit(#[from] crate::emit::EmitError),
    #[error("cannot create a temporary directory for the design: {0}")]
    Scratch(io::Error),
    #[error("cannot read {}: {cause}", path.display())]
    Read { path: PathBuf, cause: io::Error },
    #[error("{} is not a design manifest: {cause}", path.display())]
    Manifest {
        path: PathBuf,
        cause: serde_json::Error,
    },
    #[error(transparent)]
    SelfTimed(#[from] crate::rtl::ir::SelfTimedError),
    #[error(
        "the design in {} is the pipelined engine, whose ports are not the route generator's; check it with `kautzgen verify --d D --k K --arch pipelined`, which generates it",
        dir.display()
    )]
    Pipelined { dir: PathBuf },
    #[error("the design in {} is for {found}, not d = {d}, k = {k}", dir.display())]
    Params {
        dir: PathBuf,
        found: String,
        d: usize,
        k: usize,
    },
}

/// A generated design directory: `manifest.json` and the HDL files it lists.
#[derive(Debug, Clone)]
pub struct Design {
    dir: PathBuf,
    manifest: Manifest,
}

impl Design {
    /// Reads `dir/manifest.json`.
    pub fn load(dir: &Path) -> Result<Self, DesignError> {
        let path = dir.join("manifest.json");
        let text = std::fs::read_to_string(&path).map_err(|cause| DesignError::Read {
            path: path.clone(),
            cause,
        })?;
        let manifest: Manifest =
            serde_json::from_str(&text).map_err(|cause| DesignError::Manifest { path, cause })?;
        // The testbenches step the design by its clock and time its answers in cycles.
        manifest
            .timing
            .require_synchronous("verification against the golden model", &manifest.top)?;
        // Simulators run in a directory of their own: the files need absolute paths.
        let dir = std::fs::canonicalize(dir).map_err(|cause| DesignError::Read {
            path: dir.to_path_buf(),
            cause,
        })?;
        Ok(Design { dir, manifest })
    }

    /// Checks that the design is a route generator (with the route-by-route handshake) and
    /// the manifest's `d` and `k` are those of `graph`.
    pub fn check_graph(&self, graph: &crate::topology::kautz::Kautz) -> Result<(), DesignError> {
        let param = |name: &str| self.manifest.params.get(name).copied();
        let (d, k) = (graph.d(), graph.k());
        if param("d") == Some(d as u64) && param("k") == Some(k as u64) {
            // Of the Kautz units, only the pipelined engine has a latency in its manifest.
            return match param("latency") {
                Some(_) => Err(DesignError::Pipelined {
                    dir: self.dir.clone(),
                }),
                None => Ok(()),
            };
        }
        let show = |v: Option<u64>| v.map_or("none".to_string(), |v| v.to_string());
        Err(DesignError::Params {
            dir: self.dir.clone(),
            found: format!("d = {}, k = {}", show(param("d")), show(param("k"))),
            d,
            k,
        })
    }

    /// The most cycles of work per route set: the manifest's `cycle_bound` (the parallel
    /// design writes it), else the faithful design's k + 3(d+1) + 4 for `graph`.
    pub fn cycle_bound(&self, graph: &crate::topology::kautz::Kautz) -> u64 {
        match self.manifest.params.get("cycle_bound") {
            Some(&bound) => bound,
            None => vectors::cycle_bound(graph),
        }
    }

    /// The top module and entity.
    pub fn top(&self) -> &str {
        &self.manifest.top
    }

    /// The files of `language`, in compile order.
    pub fn files(&self, language: Language) -> Vec<PathBuf> {
        let files = match language {
            Language::Verilog => &self.manifest.verilog,
            Language::Vhdl => &self.manifest.vhdl,
        };
        files.iter().map(|f| self.dir.join(f)).collect()
    }
}

/// How to run a verification.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Copy the waves of the run to this file; the vectors then run as one batch.
    pub wave: Option<PathBuf>,
}

/// Simulates every vector of `vectors` on `design` with `simulator` and judges the
/// results; `progress` is told how many vectors each finished batch held. When the error
/// names a log, the working directory is kept.
pub fn verify(
    simulator: &dyn Simulator,
    design: &Design,
    vectors: &VectorSet,
    options: &Options,
    progress: &mut dyn FnMut(u64),
) -> Result<Report, SimError> {
    let language = simulator.language();
    let mut sources = design.files(language);
    if sources.is_empty() {
        return Err(SimError::NoSources(match language {
            Language::Verilog => "Verilog",
            Language::Vhdl => "VHDL",
        }));
    }
    let graph = vectors.graph();
    let wave = options.wave.is_some();
    let bound = design.cycle_bound(graph);
    let testbench = render(language, graph, design.top(), bound, wave)?;
    let work =
        crate::interrupt::scratch::ScratchDir::new(&format!("kautzgen-{}-", simulator.name()))
            .map_err(SimError::io("cannot create a temporary directory"))?;
    let top = testbench_name(design.top());
    // Named after the testbench's top, as Verilator's lint expects.
    let tb_file = work.path().join(match language {
        Language::Verilog => format!("{top}.v"),
        Language::Vhdl => format!("{top}.vhd"),
    });
    sources.push(tb_file.clone());
    let run = || -> Result<Report, SimError> {
        std::fs::write(&tb_file, testbench)
            .map_err(SimError::io(format!("cannot write {}", tb_file.display())))?;
        simulator.compile(work.path(), &sources, &top, wave)?;
        let mut checker = Checker::new(graph, bound, SHOWN);
        let batch = if wave {
            vectors.len().max(1)
        } else {
            BATCH as u64
        };
        let mut start = 0;
        while start < vectors.len() {
            let end = (start + batch).min(vectors.len());
            let batch: Vec<Vector> = (start..end).map(|i| vectors.get(i)).collect();
            let observed = run_batch(simulator, work.path(), &top, wave, &batch, graph)?;
            for (vector, observed) in batch.iter().zip(observed) {
                checker.check(simulator.name(), vector, &observed);
            }
            progress(end - start);
            start = end;
        }
        if let Some(path) = &options.wave {
            copy_wave(work.path(), path)?;
        }
        Ok(checker.finish(simulator.name()))
    };
    let report = run();
    if report.as_ref().is_err_and(SimError::keeps_files) {
        let _kept = work.keep();
    }
    report
}

/// Runs one batch; vectors the results file does not reach are [`End::Missing`].
fn run_batch(
    simulator: &dyn Simulator,
    work: &Path,
    top: &str,
    wave: bool,
    batch: &[Vector],
    graph: &crate::topology::kautz::Kautz,
) -> Result<Vec<Observed>, SimError> {
    let vectors_file = work.join("vectors.txt");
    let results_file = work.join("results.txt");
    std::fs::write(&vectors_file, stimulus_file(batch, Widths::of(graph))).map_err(
        SimError::io(format!("cannot write {}", vectors_file.display())),
    )?;
    // A stale file from the previous batch must not pass for this one's results.
    match std::fs::remove_file(&results_file) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => {
            return Err(SimError::io(format!(
                "cannot remove {}",
                results_file.display()
            ))(e));
        }
        _ => {}
    }
    simulator.simulate(work, top, wave)?;
    let text = std::fs::read_to_string(&results_file).unwrap_or_default();
    let mut observed = results::parse(&text).map_err(|cause| SimError::Results {
        simulator: simulator.name(),
        cause,
        dir: work.to_path_buf(),
    })?;
    observed.resize(
        batch.len(),
        Observed {
            reset_low: None,
            routes: Vec::new(),
            end: End::Missing,
        },
    );
    Ok(observed)
}

/// "1 vector", "2 vectors": a count and its noun, for messages.
fn counted(n: u64, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        _ => format!("{n} {noun}s"),
    }
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
