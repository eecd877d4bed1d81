//! `manifest.json`: what a generated design directory holds, for tools and testbenches.
//!
//! It names the top module, the unit's parameters, and for each language the files in
//! compile order, relative to the directory:
//! `{"top":"kautz_route_gen","d":4,"k":5,"verilog":["verilog/a.v",...],"vhdl":[...]}`.
//! A self-timed design also says so, `"timing":"self-timed"` after the top, so that the
//! tools that assume a clock can refuse it; a synchronous one leaves the key out. A design
//! written with its self-checking testbench lists it last, under `"testbench"`: its tops,
//! files and the command that runs it in each simulator.

use crate::emit::testbench::TestbenchEntry;
use crate::rtl::ir::Timing;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Name of the top module (Verilog) and entity (VHDL).
    pub top: String,
    #[serde(default, skip_serializing_if = "Timing::is_synchronous")]
    pub timing: Timing,
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
    /// The manifest as written to disk: one line of JSON and a newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string(self).expect("manifests always serialise");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_documented_example() {
        let manifest = Manifest {
            top: "kautz_route_gen".into(),
            timing: Timing::Synchronous,
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
    }
}
