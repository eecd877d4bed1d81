//! The router with an AXI4-Stream processor side (`generate router --interface axis`;
//! docs/network.md, "AXI4-Stream interface"): the router of [`super::router`] as
//! `<top>_core` and the block of [`super::axis`] in front of it, under the top `<top>`.
//!
//! The top keeps the router's network side (`node`, `net_*` to the switch's input 0,
//! `net_nack`, `arr_*` from its output 0), adds `refuse`, which goes to the switch's
//! output-0 fault bit, and shows the three streams and `rx_error` in place of the router's
//! processor ports: the node of a network with `--interface axis`, without its switch.

use super::axis::{self, AxisParams};
use super::processor_side::{NODE_SIDE, NodeInside, axis_block};
use super::router::{self, RouterParams};
use crate::rtl::ir::{Connections, Design, Module, SignalKind};

/// The router of `router` (whose top must be named `<top>_core`) behind a receive FIFO of
/// `rx_bytes`, as the module `top`.
pub fn design(router: &RouterParams, rx_bytes: u64, top: &str) -> Design {
    let inner = router::design(router);
    let block = axis::module(
        &format!("{top}_axis"),
        &AxisParams::of(router, inner.top(), rx_bytes),
    );
    let wrapper = wrapper(top, inner.top(), &block);
    let mut modules = inner.modules;
    modules.push(block);
    modules.push(wrapper);
    Design {
        params: inner.params,
        summary: format!(
            "{} behind AXI4-Stream, a {rx_bytes}-byte receive FIFO",
            inner.summary
        ),
        modules,
        timing: inner.timing,
    }
}

/// The top: the router's network side and `refuse` as ports, the block's streams.
fn wrapper(top: &str, router: &Module, block: &Module) -> Module {
    let mut m = Module::new(
        top,
        &[
            "The router of the network-switch paper (Smit et al. 1991) with an AXI4-Stream processor side.",
            "refuse goes to the switch's output-0 fault bit: the receive FIFO could not take a whole message.",
        ],
    );
    let clocking = m.clocked();
    let port = |name: &str| {
        let (_, s) = router
            .ports()
            .find(|(_, s)| s.name == name)
            .expect("the router has the port");
        (s.width, s.doc.clone(), s.kind.clone())
    };
    let (width, doc, _) = port("node");
    let node = m.input("node", width, &doc);
    let mut router_connections = Connections::of(router)
        .bind(&router.port_named("clk"), clocking.clock)
        .bind(&router.port_named("rst"), clocking.reset)
        .bind(&router.port_named("node"), node);
    let mut network = Vec::new();
    // The router's node side but its clocking and word: the ports to its switch.
    for &name in &NODE_SIDE[3..] {
        let (width, doc, kind) = port(name);
        let direction = match kind {
            SignalKind::Port(direction) => direction,
            SignalKind::Internal => unreachable!("a port"),
        };
        let signal = m.port(name, width, direction, &doc);
        router_connections.add(&router.port_named(name), signal);
        network.push(signal);
    }
    let inside = NodeInside {
        clock: clocking.clock,
        reset: clocking.reset,
        node,
        arr_valid: network[4],
        arr_ctl: network[5],
    };
    let refuse = m.output(
        "refuse",
        1,
        "to the switch's output-0 fault bit: the receive FIFO could not take a whole message",
    );
    axis_block(
        &mut m,
        (router, &mut router_connections),
        block,
        inside,
        refuse,
    );
    m.instance("u_core", router_connections, "The router.");
    m
}
