//! The network top with packed ports (`--ports packed`, docs/network.md): one vector per
//! signal of a node instead of one port per node and signal.
//!
//! In: the network's [`Design`] as [`super::whole`] builds it (the flat top, `n012_tx_valid`,
//! `n012_tx_data`, ...) and its parameters. Out: the same design with the flat top renamed
//! `<top>_flat` and a new top `<top>` that instantiates it: for every signal `name` of a
//! node, one port `name` of N*W bits (N nodes, W the signal's width), node i (in the
//! documented node order, [`NetworkParams::node_prefix`]) at bits `[i*W +: W]`. Ports of
//! no node (`clk`, `rst`) pass through. Wrapping the flat top keeps one builder of the
//! network and its wiring; synthesis flattens the wrapper away.

use super::switch::SwitchClocking;
use super::whole::NetworkParams;
use crate::choice::choice;
use crate::rtl::ir::{Connections, Design, Direction, Expr, Module, SignalId, SignalKind};

choice! {
    /// How the network top shows its nodes' ports.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum PortForm {
        #[default]
        Flat = "flat":
            "One group of ports per node, named after it (n012_tx_valid, n012_tx_data, ...)",
        Packed = "packed":
            "One vector per signal, node i at bits [i*W +: W] in the documented node order (tx_valid, tx_data, ...)",
    }
}

/// One packed port: the signal's name, its width at one node, and its direction.
struct Packed {
    name: String,
    width: u32,
    direction: Direction,
    doc: String,
}

/// `design` (the network of `params`, its top flat) with its top packed; see the module
/// docs. A self-timed network is not packed: its check wires the nodes itself.
pub fn pack(mut design: Design, params: &NetworkParams) -> Design {
    assert_eq!(
        params.clocking,
        SwitchClocking::Synchronous,
        "the network unit packs synchronous networks only"
    );
    let mut flat = design.modules.pop().expect("a network has its top");
    flat.name = format!("{}_flat", params.top);
    let prefixes: Vec<String> = (0..params.nodes())
        .map(|v| format!("{}_", params.node_prefix(v)))
        .collect();
    let mut m = Module::new(params.top.clone(), &[]);
    m.doc = flat.doc.clone();
    m.doc.push(format!(
        "Packed: one vector per node signal, node i at bits [i*W +: W], over the flat top {}.",
        flat.name
    ));
    let clocking = m.clocked();
    let mut connections = Connections::of(&flat);
    let signals = signals_of_a_node(&flat, &prefixes[0], &params.plan().node_name(0));
    let mut outputs = Vec::new();
    for signal in &signals {
        let n = prefixes.len() as u32;
        let port = m.port(
            &signal.name,
            n * signal.width,
            signal.direction,
            &signal.doc,
        );
        let mut wires = Vec::new();
        for (i, prefix) in prefixes.iter().enumerate() {
            let flat_port = flat.port_named(&format!("{prefix}{}", signal.name));
            let lo = i as u32 * signal.width;
            match signal.direction {
                Direction::Input => connections.add(
                    &flat_port,
                    Expr::Slice {
                        signal: port,
                        lo,
                        width: signal.width,
                    },
                ),
                Direction::Output => {
                    let name = format!("{prefix}{}", signal.name);
                    let wire = m.internal(&name, signal.width, &format!("{name}, as packed"));
                    connections.add(&flat_port, wire);
                    wires.push(wire);
                }
            }
        }
        if signal.direction == Direction::Output {
            outputs.push((port, wires));
        }
    }
    connections.add(&flat.port_named("clk"), clocking.clock);
    connections.add(&flat.port_named("rst"), clocking.reset);
    m.instance(
        "u_flat",
        connections,
        "The network with one port per node and signal.",
    );
    for (port, wires) in outputs {
        // The most significant part first: the last node's.
        let parts = wires.iter().rev().map(|&w| Expr::from(w)).collect();
        m.assign(port, Expr::concat(parts), "");
    }
    design.modules.push(flat);
    design.modules.push(m);
    design
}

/// The signals of the node whose ports start with `prefix`, named `shown` in their docs,
/// in port order, their docs made about node i.
fn signals_of_a_node(flat: &Module, prefix: &str, shown: &str) -> Vec<Packed> {
    let node = format!("node {shown}");
    flat.ports()
        .filter_map(|(_, s): (SignalId, _)| {
            let name = s.name.strip_prefix(prefix)?;
            let SignalKind::Port(direction) = s.kind else {
                unreachable!("ports() gives ports")
            };
            Some(Packed {
                name: name.to_string(),
                width: s.width,
                direction,
                doc: format!(
                    "bits [i*{w} +: {w}], {}",
                    s.doc.replacen(&node, "node i", 1),
                    w = s.width
                ),
            })
        })
        .collect()
}
