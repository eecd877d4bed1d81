//! The blocks of a unit, each with its own cells: the unit synthesised a second time with
//! every module kept (`synth_* -noflatten`), and yosys's statistics per module summed up
//! the instance tree. This answers where a network's LUTs go (switch, router, route
//! generator, per node).
//!
//! In: yosys's netlist (`write_json`) of that run and the unit's top module. Out: the
//! [`Block`]s of the tree in depth-first order, each with its cells including those of its
//! submodules.

use crate::synth::target::Target;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One module of the unit's instance tree, under its parent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub module: String,
    /// 0 for the unit's top, 1 for its submodules, and so on.
    pub depth: u32,
    /// Instances of the module in one instance of its parent.
    pub instances: u64,
    /// One instance's cells, its submodules' included.
    pub luts: u64,
    pub flip_flops: u64,
    pub rams: u64,
}

/// yosys's JSON netlist: the cells of each module, by name.
#[derive(Deserialize)]
pub(crate) struct Netlist {
    modules: BTreeMap<String, NetlistModule>,
}

#[derive(Deserialize)]
struct NetlistModule {
    /// `blackbox` marks the FPGA's own cells, which the netlist lists as modules too.
    #[serde(default)]
    attributes: BTreeMap<String, serde_json::Value>,
    #[serde(default)]
    cells: BTreeMap<String, NetlistCell>,
}

impl NetlistModule {
    fn is_design(&self) -> bool {
        !self.attributes.contains_key("blackbox")
    }
}

#[derive(Deserialize)]
struct NetlistCell {
    #[serde(rename = "type")]
    kind: String,
}

/// A module's own cells and its submodules with their instance counts.
struct Node {
    luts: u64,
    flip_flops: u64,
    rams: u64,
    children: Vec<(String, u64)>,
}

/// The instance tree of `top` in `netlist`, depth first, children in name order; empty
/// when `netlist` has no module `top`.
pub(crate) fn blocks(netlist: &Netlist, top: &str, target: Target) -> Vec<Block> {
    let nodes: BTreeMap<String, Node> = netlist
        .modules
        .iter()
        .map(|(name, module)| {
            let mut by_type: BTreeMap<String, u64> = BTreeMap::new();
            for cell in module.cells.values() {
                *by_type.entry(cell.kind.clone()).or_default() += 1;
            }
            let counts = target.count(&by_type);
            let children = by_type
                .into_iter()
                .filter(|(kind, _)| {
                    netlist
                        .modules
                        .get(kind)
                        .is_some_and(NetlistModule::is_design)
                })
                .collect();
            let node = Node {
                luts: counts.luts,
                flip_flops: counts.flip_flops,
                rams: counts.rams,
                children,
            };
            (name.clone(), node)
        })
        .collect();
    let mut out = Vec::new();
    if nodes.contains_key(top) {
        walk(&nodes, top, 0, 1, &mut out);
    }
    out
}

/// Appends `module` (with `instances` in its parent) and its subtree to `out`; returns the
/// index of its block.
fn walk(
    nodes: &BTreeMap<String, Node>,
    module: &str,
    depth: u32,
    instances: u64,
    out: &mut Vec<Block>,
) -> usize {
    let node = &nodes[module];
    let index = out.len();
    out.push(Block {
        module: module.to_string(),
        depth,
        instances,
        luts: node.luts,
        flip_flops: node.flip_flops,
        rams: node.rams,
    });
    for (child, n) in &node.children {
        let c = walk(nodes, child, depth + 1, *n, out);
        let (luts, flip_flops, rams) = (out[c].luts, out[c].flip_flops, out[c].rams);
        out[index].luts += n * luts;
        out[index].flip_flops += n * flip_flops;
        out[index].rams += n * rams;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A netlist of the d=2 switch's shape: a top with three LUTs, a flip-flop and two
    /// instances of an output block of two LUTs, a carry cell (two LUTs) and a flip-flop.
    const SWITCH_NETLIST: &str = r#"{"modules": {
      "kautz_switch": {"cells": {
        "a": {"type": "LUT4"}, "b": {"type": "LUT4"}, "c": {"type": "LUT4"},
        "r": {"type": "TRELLIS_FF"},
        "output0": {"type": "kautz_switch_output"}, "output1": {"type": "kautz_switch_output"}}},
      "kautz_switch_output": {"cells": {
        "a": {"type": "LUT4"}, "b": {"type": "LUT4"}, "c": {"type": "CCU2C"},
        "r": {"type": "TRELLIS_FF"}}},
      "LUT4": {"attributes": {"blackbox": "00000000000000000000000000000001"}},
      "unused": {}
    }}"#;

    #[test]
    fn blocks_include_their_submodules() {
        let netlist: Netlist = serde_json::from_str(SWITCH_NETLIST).unwrap();
        let tree = blocks(&netlist, "kautz_switch", Target::Ecp5_25k);
        let rows: Vec<_> = tree
            .iter()
            .map(|b| {
                (
                    b.module.as_str(),
                    b.depth,
                    b.instances,
                    b.luts,
                    b.flip_flops,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("kautz_switch", 0, 1, 3 + 2 * 4, 1 + 2),
                ("kautz_switch_output", 1, 2, 4, 1),
            ]
        );
        assert!(blocks(&netlist, "kautz_router", Target::Ecp5_25k).is_empty());
    }
}
