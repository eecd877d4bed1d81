//! A network as other tools read it: its arcs as an edge list ([`edge_list`]) or as GraphML
//! ([`graphml`]), and one pair's routes as JSON ([`routes`]), so that networkx, Gephi or
//! another simulator takes the very network `netsim` runs (docs/export.md).
//!
//! In: a topology's [`Plan`], the one the network model runs: its nodes in the model's
//! order with their names, its wiring, its routes; and the command line that asked, which
//! each file records. Out: the file's bytes on a writer, the same for the same command.

pub mod edge_list;
pub mod graphml;
pub mod routes;

use crate::fabric::wiring::Wiring;
use crate::network::plan::Plan;

/// One link of the network: output port `out_port` of switch `src` drives input port
/// `in_port` of switch `dst` (ports 1 to d, docs/topologies.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arc {
    pub src: usize,
    pub dst: usize,
    pub out_port: usize,
    pub in_port: usize,
}

/// Every link of `wiring`, by source node and then by output port: the order in which an
/// edge list (`--topology file:PATH`) numbers a node's output ports, so that reading the
/// export back keeps them wherever a node has no idle port below a linked one.
pub fn arcs(wiring: &Wiring) -> impl Iterator<Item = Arc> + '_ {
    (0..wiring.nodes()).flat_map(move |src| {
        (1..=wiring.ports()).filter_map(move |out_port| {
            wiring.output(src, out_port).map(|end| Arc {
                src,
                dst: end.node,
                out_port,
                in_port: end.port,
            })
        })
    })
}

/// Whether every node of `plan` is named by its index (an edge list's nodes), so that a
/// file need not list the names.
pub fn named_by_index(plan: &dyn Plan) -> bool {
    (0..plan.node_count()).all(|v| plan.node_name(v) == v.to_string())
}

/// The version of kautzgen that writes a file, which the file records beside the command.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
