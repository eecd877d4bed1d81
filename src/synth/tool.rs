//! One external program: how to run it, which Debian package installs it, and its log.

use std::path::{Path, PathBuf};
use std::process::Command;
use thiserror::Error;

/// An external tool the project runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool {
    pub program: &'static str,
    /// The Debian package that provides it.
    pub package: &'static str,
}

pub const VERILATOR: Tool = Tool {
    program: "verilator",
    package: "verilator",
};
pub const GHDL: Tool = Tool {
    program: "ghdl",
    package: "ghdl",
};
pub const YOSYS: Tool = Tool {
    program: "yosys",
    package: "yosys",
};

#[derive(Debug, Error)]
pub enum ToolError {
    #[error(
        "{program} is not installed: install it with `apt-get install {package}`, or run `make deps`"
    )]
    Missing {
        program: &'static str,
        package: &'static str,
    },
    #[error("cannot run {program}: {cause}")]
    Io {
        program: &'static str,
        cause: std::io::Error,
    },
}

/// What a finished run printed, and whether it exited successfully.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub success: bool,
    /// Standard output and standard error, in that order.
    pub log: String,
    /// Where the log was kept.
    pub log_path: PathBuf,
}

impl Tool {
    /// Runs the tool with `args` in `dir`, keeping its output in `dir/<log_name>`.
    pub fn run(&self, args: &[String], dir: &Path, log_name: &str) -> Result<Outcome, ToolError> {
        let output = Command::new(self.program)
            .args(args)
            .current_dir(dir)
            .output()
            .map_err(|source| {
                if source.kind() == std::io::ErrorKind::NotFound {
                    ToolError::Missing {
                        program: self.program,
                        package: self.package,
                    }
                } else {
                    ToolError::Io {
                        program: self.program,
                        cause: source,
                    }
                }
            })?;
        let log = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        let log_path = dir.join(log_name);
        std::fs::write(&log_path, &log).map_err(|source| ToolError::Io {
            program: self.program,
            cause: source,
        })?;
        Ok(Outcome {
            success: output.status.success(),
            log,
            log_path,
        })
    }
}
