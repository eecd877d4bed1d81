//! `manifest.json`: what a generated design directory holds, for tools and testbenches.
//!
//! It names the top module, the unit's parameters, and for each language the files in
//! compile order, relative to the directory:
//! `{"top":"kautz_route_gen","d":4,"k":5,"verilog":["verilog/a.v",...],"vhdl":[...]}`.
//! A self-timed design also says so, `"timing":"self-timed"` after the top, so that the
//! tools that assume a clock can refuse it; a synchronous one leaves the key out. A design
//! reset in another style than the default names it, `"reset":"async-low"`, so that the
//! tools that drive the reset drive it right. A design
//! written with its self-checking testbench lists it last, under `"testbench"`: its tops,
//! files and the command that runs it in each simulator.
//!
//! The writers of a design directory's other files read these types and never the
//! reverse: the FuseSoC core ([`super::fusesoc`]) and the testbench's README
//! ([`super::testbench`]) both name the design by [`Manifest::vlnv`].

use crate::rtl::ir::{ResetStyle, Timing};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Name of the top module (Verilog) and entity (VHDL).
    pub top: String,
    #[serde(default, skip_serializing_if = "Timing::is_synchronous")]
    pub timing: Timing,
    /// How the registers are reset; left out for the default, `sync-high`.
    #[serde(default, skip_serializing_if = "ResetStyle::is_default")]
    pub reset: ResetStyle,
    /// The unit's size parameters, such as `d` and `k`, in name order.
    #[serde(flatten)]
    pub params: BTreeMap<String, u64>,
    /// Verilog files in compile order, leaves first; empty when not generated.
    pub verilog: Vec<String>,
    /// VHDL files in compile order, packages and leaves first; empty when not generated.
    pub vhdl: Vec<String>,
    /// The self-checking testbench in `tb/`, when one was written (`generate --testbench`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub testbench: Option<TestbenchEntry>,
}

impl Manifest {
    /// The design's FuseSoC name: `kautzgen:hdl:<top>_<params>:<version>`, such as
    /// `kautzgen:hdl:kautz_route_gen_d4_k5:0.1.0`, so that sizes of one unit do not clash in
    /// one library. The core names itself by it and the testbench's README refers to it.
    pub fn vlnv(&self) -> String {
        let mut name = self.top.clone();
        for (k, v) in &self.params {
            name.push_str(&format!("_{k}{v}"));
        }
        format!("kautzgen:hdl:{name}:{}", env!("CARGO_PKG_VERSION"))
    }

    /// The manifest as written to disk: one line of JSON and a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string(self).expect("manifests always serialise");
        text.push('\n');
        text
    }
}

/// The manifest's `testbench` entry: the files and how to run them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestbenchEntry {
    /// The testbench's top in each language it has ("verilog", "vhdl").
    pub top: BTreeMap<String, String>,
    /// Its files, relative to the design directory: each language's source, the vectors,
    /// and the cocotb test's (its configuration, the test, its runner).
    pub files: Vec<String>,
    /// Vectors or cycles judged; a correct design passes all of them.
    pub checks: u64,
    /// The shell command that builds and runs it in each simulator ("icarus",
    /// "verilator", "ghdl"), and its cocotb test in each ("cocotb-icarus", ...), to be
    /// run in `tb/`.
    pub run: BTreeMap<String, String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_documented_example() {
        let manifest = Manifest {
            top: "kautz_route_gen".into(),
            timing: Timing::Synchronous,
            reset: ResetStyle::SyncHigh,
            params: BTreeMap::from([("d".into(), 4), ("k".into(), 5)]),
            verilog: vec!["verilog/a.v".into()],
            vhdl: vec!["vhdl/a.vhd".into()],
            testbench: None,
        };
        let json = manifest.to_json();
        assert_eq!(
            json,
            "{\"top\":\"kautz_route_gen\",\"d\":4,\"k\":5,\"verilog\":[\"verilog/a.v\"],\"vhdl\":[\"vhdl/a.vhd\"]}\n"
        );
        assert_eq!(serde_json::from_str::<Manifest>(&json).unwrap(), manifest);
        let self_timed = Manifest {
            timing: Timing::SelfTimed,
            ..manifest
        };
        let json = self_timed.to_json();
        assert_eq!(
            json,
            "{\"top\":\"kautz_route_gen\",\"timing\":\"self-timed\",\"d\":4,\"k\":5,\"verilog\":[\"verilog/a.v\"],\"vhdl\":[\"vhdl/a.vhd\"]}\n"
        );
        assert_eq!(serde_json::from_str::<Manifest>(&json).unwrap(), self_timed);
        let async_low = Manifest {
            timing: Timing::Synchronous,
            reset: ResetStyle::AsyncLow,
            ..self_timed
        };
        let json = async_low.to_json();
        assert_eq!(
            json,
            "{\"top\":\"kautz_route_gen\",\"reset\":\"async-low\",\"d\":4,\"k\":5,\"verilog\":[\"verilog/a.v\"],\"vhdl\":[\"vhdl/a.vhd\"]}\n"
        );
        assert_eq!(serde_json::from_str::<Manifest>(&json).unwrap(), async_low);
    }
}
