//! The GHDL runner.
//!
//! In: VHDL-2008 design files and the VHDL testbench. Out: the units analysed into library
//! `work` (kept in `<work>/ghdl`) and elaborated with `ghdl -a`/`-e --std=08`, and runs with
//! `ghdl -r` in `<work>`, which read `vectors.txt` and write `results.txt` (and `wave.vcd`,
//! by `--vcd`). Output goes to `compile.log` and `run.log` in the working directory.

use crate::sim::testbench::Language;
use crate::sim::{SimError, Simulator, first_error, run_logged};
use std::path::{Path, PathBuf};
use std::process::Command;

const NAME: &str = "ghdl";

/// GHDL, run as the program `exe`.
#[derive(Debug, Clone)]
pub struct Ghdl {
    pub exe: PathBuf,
}

impl Default for Ghdl {
    fn default() -> Self {
        Ghdl {
            exe: PathBuf::from("ghdl"),
        }
    }
}

impl Ghdl {
    fn command(&self, step: &str) -> Command {
        let mut command = Command::new(&self.exe);
        command.args([step, "--std=08", "--workdir=ghdl"]);
        command
    }

    fn missing(&self) -> SimError {
        SimError::Missing {
            simulator: NAME,
            exe: self.exe.clone(),
            package: "ghdl",
        }
    }
}

/// GHDL reports errors as `file:line:col: message` (warnings as `file:line:col:warning:`)
/// and failures of elaboration and runs as `ghdl: ...` or `<program>: ...`.
fn is_error(line: &str) -> bool {
    let number = |field: &str| !field.is_empty() && field.bytes().all(|b| b.is_ascii_digit());
    let fields: Vec<&str> = line.splitn(4, ':').collect();
    let located = fields.len() == 4 && number(fields[1]) && number(fields[2]);
    (located && !fields[3].starts_with("warning")) || line.starts_with("ghdl")
}

impl Simulator for Ghdl {
    fn name(&self) -> &'static str {
        NAME
    }

    fn language(&self) -> Language {
        Language::Vhdl
    }

    fn compile(
        &self,
        work: &Path,
        sources: &[PathBuf],
        top: &str,
        _wave: bool,
    ) -> Result<(), SimError> {
        let log = work.join("compile.log");
        std::fs::create_dir_all(work.join("ghdl")).map_err(|cause| SimError::Io {
            what: format!("cannot create {}", work.join("ghdl").display()),
            cause,
        })?;
        let mut analyse = self.command("-a");
        analyse.args(sources);
        let mut elaborate = self.command("-e");
        elaborate.arg(top);
        for command in [&mut analyse, &mut elaborate] {
            match run_logged(command, work, &log)? {
                None => return Err(self.missing()),
                Some(status) if status.success() => {}
                Some(_) => {
                    return Err(SimError::Compile {
                        simulator: NAME,
                        first: first_error(&log, is_error),
                        log,
                    });
                }
            }
        }
        Ok(())
    }

    fn simulate(&self, work: &Path, top: &str, wave: bool) -> Result<(), SimError> {
        let log = work.join("run.log");
        let mut command = self.command("-r");
        // numeric_std warns about metavalues before the first reset; they are expected. An
        // assertion of severity error (a testbench reading a malformed line with hread, say)
        // ends the run as a failure rather than leaving garbage to compare.
        command.args([top, "--ieee-asserts=disable-at-0", "--assert-level=error"]);
        if wave {
            command.arg("--vcd=wave.vcd");
        }
        match run_logged(&mut command, work, &log)? {
            None => Err(self.missing()),
            Some(status) if status.success() => Ok(()),
            Some(status) => Err(SimError::Run {
                simulator: NAME,
                status,
                first: first_error(&log, is_error),
                log,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_assertion_fails_the_run_with_its_line() {
        // hread of a two-digit vector from a line holding one digit and a space asserts
        // with severity error (after time 0, where the runner leaves IEEE assertions on);
        // the run must fail and say so, not go on with garbage.
        let work = tempfile::tempdir().unwrap();
        let tb = work.path().join("tb_read.vhd");
        std::fs::write(
            &tb,
            "library ieee;\nuse ieee.std_logic_1164.all;\nuse std.textio.all;\n\
             entity tb_read is\nend entity tb_read;\n\
             architecture sim of tb_read is\nbegin\n  process\n\
             file f : text open read_mode is \"vectors.txt\";\n\
             variable l : line;\n    variable v : std_logic_vector(7 downto 0);\n\
             begin\n    wait for 1 ns;\n    readline(f, l);\n    hread(l, v);\n    wait;\n  end process;\n\
             end architecture sim;\n",
        )
        .unwrap();
        std::fs::write(work.path().join("vectors.txt"), "2 0\n").unwrap();
        let ghdl = Ghdl::default();
        ghdl.compile(work.path(), &[tb], "tb_read", false).unwrap();
        let error = ghdl.simulate(work.path(), "tb_read", false).unwrap_err();
        let text = error.to_string();
        assert!(
            text.starts_with("ghdl simulation failed (exit status: 1): ")
                && text.contains("HREAD Error"),
            "{text}"
        );
    }
}
