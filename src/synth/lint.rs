//! The static checks every generated design passes: `verilator --lint-only -Wall`, GHDL
//! analysis and elaboration with `--std=08`, and yosys `hierarchy -check; proc;
//! check -assert` with no latch inferred. Any warning counts as a failure.
//!
//! A self-timed design (its manifest says so) has combinational loops by design, its C
//! elements, which Verilator and yosys rightly report: its Verilog is checked by
//! `iverilog -g2005 -Wall` instead, its VHDL by GHDL as any other.

use crate::emit::manifest::Manifest;
use crate::rtl::ir::Timing;
use crate::synth::tool::{GHDL, IVERILOG, Tool, ToolError, VERILATOR, YOSYS};
use std::path::{Path, PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum LintError {
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error("cannot read the design in '{}': {message}", dir.display())]
    Design { dir: PathBuf, message: String },
    #[error("cannot make a work directory: {0}")]
    Scratch(std::io::Error),
}

/// One tool's verdict on a design.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub check: &'static str,
    pub clean: bool,
    /// What the tool printed; empty when clean.
    pub log: String,
}

/// Reads `dir/manifest.json`.
pub fn read_manifest(dir: &Path) -> Result<Manifest, LintError> {
    let fail = |message: String| LintError::Design {
        dir: dir.to_path_buf(),
        message,
    };
    let text = std::fs::read_to_string(dir.join("manifest.json"))
        .map_err(|e| fail(format!("manifest.json: {e}")))?;
    serde_json::from_str(&text).map_err(|e| fail(format!("manifest.json: {e}")))
}

fn absolute(dir: &Path, files: &[String]) -> Result<Vec<String>, LintError> {
    let dir = std::fs::canonicalize(dir).map_err(|e| LintError::Design {
        dir: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    Ok(files
        .iter()
        .map(|f| dir.join(f).to_string_lossy().into_owned())
        .collect())
}

fn verdict(
    check: &'static str,
    tool: &Tool,
    args: Vec<String>,
    work: &Path,
) -> Result<Verdict, LintError> {
    let outcome = tool.run(&args, work, &format!("{}.log", tool.program))?;
    let clean = outcome.success && outcome.log.trim().is_empty();
    Ok(Verdict {
        check,
        clean,
        log: outcome.log,
    })
}

/// Runs every check that applies to the languages the design directory holds.
pub fn lint(dir: &Path) -> Result<Vec<Verdict>, LintError> {
    let manifest = read_manifest(dir)?;
    let work =
        crate::interrupt::scratch::ScratchDir::new("kautzgen-lint-").map_err(LintError::Scratch)?;
    let mut verdicts = Vec::new();
    if !manifest.verilog.is_empty() {
        let files = absolute(dir, &manifest.verilog)?;
        let top = &manifest.top;
        match manifest.timing {
            Timing::Synchronous => {
                verdicts.push(verilator(&files, top, work.path())?);
                verdicts.push(yosys(&files, top, work.path())?);
            }
            Timing::SelfTimed => verdicts.push(icarus(&files, top, work.path())?),
        }
    }
    if !manifest.vhdl.is_empty() {
        let files = absolute(dir, &manifest.vhdl)?;
        let mut analyse = vec!["-a".into(), "--std=08".into()];
        analyse.extend(files);
        let analysed = verdict("ghdl -a --std=08", &GHDL, analyse, work.path())?;
        let elaborate_too = analysed.clean;
        verdicts.push(analysed);
        if elaborate_too {
            let elaborate = vec!["-e".into(), "--std=08".into(), manifest.top.clone()];
            verdicts.push(verdict("ghdl -e --std=08", &GHDL, elaborate, work.path())?);
        }
    }
    Ok(verdicts)
}

fn verilator(files: &[String], top: &str, work: &Path) -> Result<Verdict, LintError> {
    let mut args = vec![
        "--lint-only".into(),
        "-Wall".into(),
        "--top-module".into(),
        top.to_string(),
    ];
    args.extend(files.iter().cloned());
    verdict("verilator --lint-only -Wall", &VERILATOR, args, work)
}

fn yosys(files: &[String], top: &str, work: &Path) -> Result<Verdict, LintError> {
    let script = format!(
        "read_verilog {}; hierarchy -check -top {top}; proc; check -assert; select -assert-none t:$dlatch t:$adlatch t:$dlatchsr t:$sr",
        files.join(" "),
    );
    let args = vec!["-q".into(), "-p".into(), script];
    verdict("yosys check -assert, no latches", &YOSYS, args, work)
}

/// Compiles the design with Icarus Verilog, every warning on; the program it writes is
/// not run.
fn icarus(files: &[String], top: &str, work: &Path) -> Result<Verdict, LintError> {
    let mut args = vec![
        "-g2005".into(),
        "-Wall".into(),
        "-s".into(),
        top.to_string(),
        "-o".into(),
        "iverilog.vvp".into(),
    ];
    args.extend(files.iter().cloned());
    verdict("iverilog -g2005 -Wall", &IVERILOG, args, work)
}
