//! The VHDL of a design directory as a Verilog netlist, through `ghdl --synth`, so that
//! yosys can synthesise it and compare it with the emitted Verilog (Debian packages no
//! ghdl plugin for yosys).
//!
//! In: a design directory and its manifest. Out: `<work>/ghdl/vhdl_netlist.v`, one module
//! per VHDL entity, named as the entity, so the netlist's top has the Verilog top's name.
//!
//! GHDL 2.0.0 (Debian 12) prints a multiplexer with a default (from `with .. select ..
//! when others`) as a Verilog `case` without its `default` arm, which yosys reads as a
//! latch. The VHDL netlist that the same GHDL prints still has the arm, so it is restored
//! from there; a GHDL that prints the arm leaves nothing to restore.

use crate::emit::manifest::Manifest;
use crate::synth::tool::{GHDL, ToolError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The netlist's file name inside `<work>/ghdl/`.
pub const NETLIST: &str = "vhdl_netlist.v";

#[derive(Debug, Error)]
pub enum GhdlError {
    #[error(transparent)]
    Tool(#[from] ToolError),
    #[error("the design's manifest lists no VHDL files")]
    NoVhdl,
    #[error("cannot write the VHDL netlist in '{}': {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "ghdl's Verilog leaves the case that drives {target} in {module} without a default, and its VHDL netlist gives none that can be restored"
    )]
    Default { module: String, target: String },
}

/// Analyses the design's VHDL and writes it as a Verilog netlist; returns its path.
pub fn vhdl_to_verilog(
    design: &Path,
    manifest: &Manifest,
    work: &Path,
) -> Result<PathBuf, GhdlError> {
    if manifest.vhdl.is_empty() {
        return Err(GhdlError::NoVhdl);
    }
    let dir = work.join("ghdl");
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| GhdlError::Io { path, source }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let design = std::fs::canonicalize(design).map_err(io(design))?;
    let mut analyse = vec!["-a".to_string(), "--std=08".to_string()];
    analyse.extend(
        manifest
            .vhdl
            .iter()
            .map(|f| design.join(f).to_string_lossy().into_owned()),
    );
    GHDL.run_ok(&analyse, &dir, "ghdl-analyse.log")?;
    let synth = |out: &str, log: &str| -> Result<String, GhdlError> {
        let args = [
            "--synth".to_string(),
            "--std=08".to_string(),
            format!("--out={out}"),
            manifest.top.clone(),
        ];
        Ok(GHDL.run_ok(&args, &dir, log)?.stdout)
    };
    let verilog = synth("verilog", "ghdl-synth-verilog.log")?;
    let vhdl = synth("vhdl", "ghdl-synth-vhdl.log")?;
    let path = dir.join(NETLIST);
    std::fs::write(&path, restore_case_defaults(&verilog, &vhdl)?).map_err(io(&path))?;
    Ok(path)
}

/// Adds the `default` arm that GHDL 2.0.0 leaves out of each `case` in `verilog`, taken
/// from the `when others` of the same multiplexer in `vhdl` (both printed from one netlist,
/// so modules and nets have the same names).
pub fn restore_case_defaults(verilog: &str, vhdl: &str) -> Result<String, GhdlError> {
    let defaults = vhdl_defaults(vhdl);
    let mut out = String::with_capacity(verilog.len() + 256);
    let mut module = String::new();
    // Inside a case: its target and assignment operator once an arm names them, and
    // whether it has a default arm.
    let mut in_case = false;
    let mut target: Option<(String, &str)> = None;
    let mut has_default = false;
    for line in verilog.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("module ") {
            module = rest.split([' ', '(']).next().unwrap_or("").to_string();
        } else if trimmed.starts_with("case (") {
            in_case = true;
            target = None;
            has_default = false;
        } else if trimmed.starts_with("default:") {
            has_default = true;
        } else if trimmed == "endcase" {
            if let (Some((name, operator)), false) = (&target, has_default) {
                let key = (module.clone(), name.clone());
                let value = defaults
                    .get(&key)
                    .and_then(|v| verilog_value(v))
                    .ok_or_else(|| GhdlError::Default {
                        module: module.clone(),
                        target: name.clone(),
                    })?;
                out.push_str(&format!("      default: {name} {operator} {value};\n"));
            }
            in_case = false;
        } else if let Some((_, arm)) = trimmed.split_once(": ")
            && in_case
            && target.is_none()
        {
            let mut words = arm.split_whitespace();
            if let (Some(name), Some(operator @ ("=" | "<="))) = (words.next(), words.next()) {
                target = Some((name.to_string(), operator));
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    Ok(out)
}

/// `(entity, target) -> value of "when others"` for every selected assignment of a GHDL
/// VHDL netlist.
fn vhdl_defaults(vhdl: &str) -> BTreeMap<(String, String), String> {
    let mut defaults = BTreeMap::new();
    let mut entity = String::new();
    let mut target: Option<String> = None;
    for line in vhdl.lines() {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("architecture ") {
            if let Some((_, of)) = rest.split_once(" of ") {
                entity = of.split_whitespace().next().unwrap_or("").to_string();
            }
        } else if let Some(rest) = trimmed.strip_prefix("with ") {
            target = rest
                .split_once(" select ")
                .and_then(|(_, t)| t.split_whitespace().next())
                .map(str::to_string);
        } else if let (Some(name), Some(value)) = (&target, trimmed.strip_suffix(" when others;")) {
            defaults.insert((entity.clone(), name.clone()), value.trim().to_string());
            target = None;
        }
    }
    defaults
}

/// A VHDL netlist value as Verilog: `"0101"` to `4'b0101`, `'1'` to `1'b1`, a net name
/// as itself; `None` for anything else.
fn verilog_value(vhdl: &str) -> Option<String> {
    let bits = |s: &str| {
        s.chars()
            .all(|c| matches!(c, '0' | '1' | 'X' | 'x' | 'Z' | 'z'))
    };
    if let Some(v) = vhdl.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        return (!v.is_empty() && bits(v)).then(|| format!("{}'b{v}", v.len()));
    }
    if let Some(v) = vhdl.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
        return (v.len() == 1 && bits(v)).then(|| format!("1'b{v}"));
    }
    let name = vhdl.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (name && vhdl.starts_with(|c: char| c.is_ascii_alphabetic())).then(|| vhdl.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERILOG: &str = "module m_control
  (input  clk);
  always @*
    case (n8_o)
      2'b10: n9_o <= 3'b111;
      2'b01: n9_o <= n5_o;
    endcase
  always @*
    case (n18_o)
      2'b10: n19_o <= 1'b1;
      2'b01: n19_o <= 1'b0;
      default: n19_o <= n3_o;
    endcase
endmodule
";

    const VHDL: &str = "architecture rtl of m_control is
begin
  with n8_o select n9_o <=
    \"111\" when \"10\",
    n5_o when \"01\",
    \"000\" when others;
  with n18_o select n19_o <=
    '1' when \"10\",
    '0' when \"01\",
    n3_o when others;
end rtl;
";

    #[test]
    fn a_missing_default_arm_is_restored_from_the_vhdl_netlist() {
        let fixed = restore_case_defaults(VERILOG, VHDL).unwrap();
        assert!(
            fixed.contains(
                "      2'b01: n9_o <= n5_o;\n      default: n9_o <= 3'b000;\n    endcase"
            )
        );
        assert_eq!(fixed.matches("default:").count(), 2, "{fixed}");
    }

    #[test]
    fn a_default_that_cannot_be_found_is_an_error() {
        let error = restore_case_defaults(VERILOG, "").unwrap_err();
        assert_eq!(
            error.to_string(),
            "ghdl's Verilog leaves the case that drives n9_o in m_control without a default, and its VHDL netlist gives none that can be restored"
        );
    }

    #[test]
    fn values_translate_or_are_refused() {
        assert_eq!(verilog_value("\"01X\"").as_deref(), Some("3'b01X"));
        assert_eq!(verilog_value("'0'").as_deref(), Some("1'b0"));
        assert_eq!(verilog_value("n12_o").as_deref(), Some("n12_o"));
        assert_eq!(verilog_value("a & b"), None);
        assert_eq!(verilog_value("\"\""), None);
    }
}
