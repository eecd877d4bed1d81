//! The critical path of a placed and routed design, as nextpnr's `--report` gives it,
//! summarised for people: the register it starts from and the one it ends at, the logic
//! steps between them, how much of its delay is logic and how much routing, the signals it
//! goes through, and what limits it.
//!
//! In: the `critical_paths` of nextpnr's JSON report. Out: a [`CriticalPath`], which the
//! synthesis report carries and prints.
//!
//! nextpnr names a cell after the net yosys gave it, with the cell type and port appended
//! (`u_unit.in2_nack_TRELLIS_FF_Q`, `u_unit.count_SB_DFFE_Q_1`,
//! `u_unit.message_buffer.0.0$DPRAM_COMB0`); [`signal_name`] strips that back to the
//! design's own name (`in2_nack`, `count`, `message_buffer`), with the instance path of a
//! flattened submodule kept (`nodes_3.router.count`).

use serde::{Deserialize, Serialize};

/// The instance name the synthesis wrapper gives the unit ([`super::wrapper`]).
pub const UNIT_INSTANCE: &str = "u_unit";

/// The slowest register-to-register path of one placement, summarised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriticalPath {
    /// The register the path starts from: a signal of the unit, or `wrapper <name>` for
    /// one of the wrapper's port registers.
    pub from: String,
    /// The register (or RAM) the path ends at.
    pub to: String,
    /// Logic steps on the path: LUTs, multiplexers, RAM reads and carry cells.
    pub logic_steps: u32,
    /// Of those, steps inside a carry chain (one carry cell to the next).
    pub carry_steps: u32,
    /// Whether a RAM is read or addressed on the path.
    pub through_ram: bool,
    pub logic_ns: f64,
    pub routing_ns: f64,
    /// Clock-to-output and setup included.
    pub total_ns: f64,
    /// The unit's signals the path passes through, in order, each once.
    pub through: Vec<String>,
}

/// nextpnr's report: the paths it found critical, one per pair of clock edges.
#[derive(Deserialize)]
pub(crate) struct ReportPaths {
    #[serde(default)]
    pub critical_paths: Vec<RawPath>,
}

#[derive(Deserialize)]
pub(crate) struct RawPath {
    from: String,
    to: String,
    path: Vec<RawStep>,
}

#[derive(Deserialize)]
struct RawStep {
    #[serde(rename = "type")]
    kind: String,
    delay: f64,
    from: RawEnd,
    to: RawEnd,
}

#[derive(Deserialize)]
struct RawEnd {
    cell: String,
    #[serde(default)]
    port: String,
}

/// Text yosys and nextpnr append to a net's name when they name a cell after it.
const CELL_SUFFIXES: [&str; 12] = [
    "_TRELLIS_",
    "_SB_",
    "_LUT4",
    "_CCU2C",
    "_PFUMX",
    "_L6MUX",
    "_DPR16X4",
    "_DP16KD",
    "_RAD",
    "_WAD",
    "_WRE",
    "_DI_",
];

/// The design's own name of the net a cell was named after, or `None` for cells named
/// by the tools alone (`$abc$123`, `$nextpnr_CCU2C_19`).
pub fn signal_name(cell: &str) -> Option<String> {
    let (inside, rest) = match cell.strip_prefix(UNIT_INSTANCE) {
        Some(rest) => (true, rest.strip_prefix('.')?),
        None => (false, cell),
    };
    let mut parts = Vec::new();
    for part in rest.split('.') {
        let part = part.split('$').next().unwrap_or("");
        let cut = CELL_SUFFIXES
            .iter()
            .filter_map(|s| part.find(s))
            .min()
            .unwrap_or(part.len());
        let part = &part[..cut];
        if !part.is_empty() && !part.bytes().all(|b| b.is_ascii_digit()) {
            parts.push(part);
        }
    }
    if parts.is_empty() {
        return None;
    }
    let name = parts.join(".");
    Some(if inside {
        name
    } else {
        format!("wrapper {name}")
    })
}

/// The register-to-register path of nextpnr's report (both ends on a clock edge), or
/// `None` when it has none.
pub(crate) fn summarise(report: &ReportPaths) -> Option<CriticalPath> {
    let raw = report
        .critical_paths
        .iter()
        .find(|p| p.from.contains("edge ") && p.to.contains("edge "))?;
    let first = raw.path.first()?;
    let last = raw.path.last()?;
    let mut path = CriticalPath {
        from: signal_name(&first.from.cell).unwrap_or_else(|| first.from.cell.clone()),
        to: signal_name(&last.to.cell).unwrap_or_else(|| last.to.cell.clone()),
        logic_steps: 0,
        carry_steps: 0,
        through_ram: false,
        logic_ns: 0.0,
        routing_ns: 0.0,
        total_ns: 0.0,
        through: Vec::new(),
    };
    for step in &raw.path {
        path.total_ns += step.delay;
        match step.kind.as_str() {
            "routing" => path.routing_ns += step.delay,
            "logic" => {
                path.logic_ns += step.delay;
                path.logic_steps += 1;
                path.carry_steps += u32::from(step.from.port == "FCI");
                path.through_ram |= is_ram(&step.to.cell);
                if let Some(name) = signal_name(&step.to.cell)
                    && path.through.last() != Some(&name)
                    && !path.through.contains(&name)
                {
                    path.through.push(name);
                }
            }
            _ => {}
        }
    }
    path.through_ram |= is_ram(&last.to.cell);
    Some(path)
}

/// Whether nextpnr's cell is (part of) a RAM: ECP5 distributed or block RAM, iCE40 RAM.
fn is_ram(cell: &str) -> bool {
    ["$DPRAM", "DP16KD", "SB_RAM40"]
        .iter()
        .any(|m| cell.contains(m))
}

impl CriticalPath {
    /// `from -> to`.
    pub fn ends(&self) -> String {
        format!("{} -> {}", self.from, self.to)
    }

    /// The delay split: `5 logic steps (2 carry), 1.73 ns logic + 4.58 ns routing = 6.30 ns`.
    pub fn delays(&self) -> String {
        let carry = match self.carry_steps {
            0 => String::new(),
            n => format!(" ({n} in a carry chain)"),
        };
        format!(
            "{} logic steps{carry}, {:.2} ns logic + {:.2} ns routing = {:.2} ns",
            self.logic_steps, self.logic_ns, self.routing_ns, self.total_ns
        )
    }

    /// What limits the path, in words: the share of routing, and the structures on it
    /// that take more than a LUT's delay.
    pub fn limit(&self) -> String {
        let share = if self.total_ns > 0.0 {
            100.0 * self.routing_ns / self.total_ns
        } else {
            0.0
        };
        let mut causes = vec![format!(
            "{} logic levels",
            self.logic_steps - self.carry_steps
        )];
        if self.carry_steps > 0 {
            causes.push(format!("a carry chain of {} steps", self.carry_steps));
        }
        if self.through_ram {
            causes.push("a distributed-RAM read".to_string());
        }
        format!("routing {share:.0}% of the delay; {}", causes.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_named_after_the_design_signals() {
        let cases = [
            ("u_unit.in2_nack_TRELLIS_FF_Q", Some("in2_nack")),
            ("u_unit.fault_LUT4_C_2_Z_LUT4_Z_1_B_LUT4_A", Some("fault")),
            (
                "u_unit.message_buffer.0.0$DPRAM_COMB0",
                Some("message_buffer"),
            ),
            ("u_unit.count_SB_DFFE_Q_1", Some("count")),
            ("in_q_TRELLIS_FF_Q_8", Some("wrapper in_q")),
            (
                "u_unit.nodes_3.router.pos_TRELLIS_FF_Q_7",
                Some("nodes_3.router.pos"),
            ),
            ("$nextpnr_CCU2C_19$CCU2_COMB0", None),
            ("u_unit.$abc$4521$auto_1", None),
        ];
        for (cell, name) in cases {
            assert_eq!(signal_name(cell).as_deref(), name, "{cell}");
        }
    }

    /// The critical path of the d=2 switch on ECP5-25k (seed 1, before issue 29), as
    /// nextpnr 0.11 reported it: the input byte through four LUTs and a PFUMX into a NACK
    /// register.
    const SWITCH_PATH: &str = r#"{"critical_paths": [
      {"from": "<async>", "to": "posedge clk", "path": [
        {"type": "source", "delay": 0, "from": {"cell": "capture$tr_io", "port": "O"}, "to": {"cell": "capture$tr_io", "port": "O"}}]},
      {"from": "posedge clk", "to": "posedge clk", "path": [
        {"type": "clk-to-q", "delay": 0.525, "from": {"cell": "in_q_TRELLIS_FF_Q_8", "port": "Q"}, "to": {"cell": "in_q_TRELLIS_FF_Q_8", "port": "Q"}},
        {"type": "routing", "delay": 0.857, "from": {"cell": "in_q_TRELLIS_FF_Q_8", "port": "Q"}, "to": {"cell": "u_unit.fault_LUT4_C_2_Z_LUT4_Z_2_C_LUT4_Z", "port": "D"}},
        {"type": "logic", "delay": 0.236, "from": {"cell": "u_unit.fault_LUT4_C_2_Z_LUT4_Z_2_C_LUT4_Z", "port": "D"}, "to": {"cell": "u_unit.fault_LUT4_C_2_Z_LUT4_Z_2_C_LUT4_Z", "port": "F"}},
        {"type": "routing", "delay": 1.034, "from": {"cell": "u_unit.fault_LUT4_C_2_Z_LUT4_Z_2_C_LUT4_Z", "port": "F"}, "to": {"cell": "u_unit.fault_LUT4_C_2_Z_LUT4_Z_2", "port": "C"}},
        {"type": "logic", "delay": 0.236, "from": {"cell": "u_unit.fault_LUT4_C_2_Z_LUT4_Z_2", "port": "C"}, "to": {"cell": "u_unit.fault_LUT4_C_2_Z_LUT4_Z_2", "port": "F"}},
        {"type": "routing", "delay": 0.8, "from": {"cell": "u_unit.fault_LUT4_C_2_Z_LUT4_Z_2", "port": "F"}, "to": {"cell": "u_unit.in2_nack_TRELLIS_FF_Q_DI_PFUMX_Z_BLUT_LUT4_Z", "port": "M"}},
        {"type": "logic", "delay": 0.26, "from": {"cell": "u_unit.in2_nack_TRELLIS_FF_Q_DI_PFUMX_Z_BLUT_LUT4_Z", "port": "M"}, "to": {"cell": "u_unit.in2_nack_TRELLIS_FF_Q_DI_PFUMX_Z_BLUT_LUT4_Z", "port": "OFX"}},
        {"type": "routing", "delay": 0.33, "from": {"cell": "u_unit.in2_nack_TRELLIS_FF_Q_DI_PFUMX_Z_BLUT_LUT4_Z", "port": "OFX"}, "to": {"cell": "u_unit.in2_nack_TRELLIS_FF_Q", "port": "M"}},
        {"type": "setup", "delay": 0, "from": {"cell": "u_unit.in2_nack_TRELLIS_FF_Q", "port": "M"}, "to": {"cell": "u_unit.in2_nack_TRELLIS_FF_Q", "port": "M"}}]}
    ]}"#;

    #[test]
    fn the_register_to_register_path_is_summarised() {
        let report: ReportPaths = serde_json::from_str(SWITCH_PATH).unwrap();
        let path = summarise(&report).unwrap();
        assert_eq!(path.ends(), "wrapper in_q -> in2_nack");
        assert_eq!(path.through, ["fault", "in2_nack"]);
        assert_eq!(
            path.delays(),
            "3 logic steps, 0.73 ns logic + 3.02 ns routing = 4.28 ns"
        );
        assert_eq!(path.limit(), "routing 71% of the delay; 3 logic levels");
    }

    #[test]
    fn a_report_without_a_clocked_path_has_none() {
        let report: ReportPaths = serde_json::from_str(r#"{"critical_paths": []}"#).unwrap();
        assert_eq!(summarise(&report), None);
        let report: ReportPaths = serde_json::from_str("{}").unwrap();
        assert_eq!(summarise(&report), None);
    }
}
