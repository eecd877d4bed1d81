//! The network as an edge list: one arc `SRC DST` a line, the nodes by their index in the
//! network model's order, after `#` comment lines that say what the file is, who wrote it
//! with which command, the node and arc counts and each node's name. networkx's
//! `read_edgelist` and `kautzgen --topology file:PATH` read it as it is (docs/export.md).

use super::{VERSION, arcs, named_by_index};
use crate::fabric::wiring::Wiring;
use crate::network::plan::Plan;
use std::io::{self, Write};

/// Writes `plan`'s network, wired by `wiring` (the plan's), as an edge list that records
/// `command`.
pub fn write(
    out: &mut dyn Write,
    plan: &dyn Plan,
    wiring: &Wiring,
    command: &str,
) -> io::Result<()> {
    let nodes = plan.node_count();
    writeln!(
        out,
        "# {} as an edge list: one arc SRC DST a line, each node by its index in kautzgen's node order",
        one_line(&plan.name())
    )?;
    writeln!(
        out,
        "# written by kautzgen {VERSION}: {}",
        one_line(command)
    )?;
    writeln!(out, "# nodes: {nodes}")?;
    writeln!(out, "# arcs: {}", arcs(wiring).count())?;
    writeln!(
        out,
        "# each node's arcs in the order of its switch's output ports (docs/topologies.md)"
    )?;
    if named_by_index(plan) {
        writeln!(out, "# node names: each node is named by its index")?;
    } else {
        writeln!(out, "# node names, INDEX NAME:")?;
        for v in 0..nodes {
            writeln!(out, "# {v} {}", plan.node_name(v))?;
        }
    }
    for arc in arcs(wiring) {
        writeln!(out, "{} {}", arc.src, arc.dst)?;
    }
    Ok(())
}

/// `text` fit for a comment line: a line break in it (a path of `file:PATH` may hold one)
/// would end the comment and start an arc.
fn one_line(text: &str) -> String {
    text.replace(char::is_control, " ")
}
