//! Which ports of a node face its processor: the router's own (docs/network.md, "The
//! router"), or the AXI4-Stream block's in front of it ([`super::axis`]); and the wiring of
//! that block to a router, which a node of the network and the AXI4-Stream router share.

use super::axis;
use crate::rtl::ir::{Connections, Direction, Module, SignalId, SignalKind};

/// The router's ports that stay inside its node: the clocking, its word, and the switch's
/// port 0. All its others are its processor side.
pub const NODE_SIDE: [&str; 10] = [
    "clk",
    "rst",
    "node",
    "net_valid",
    "net_ctl",
    "net_data",
    "net_nack",
    "arr_valid",
    "arr_ctl",
    "arr_data",
];

/// The AXI4-Stream block's ports that stay inside its node: the clocking, the node's
/// address, the router's processor side, the switch's output 0 and the refusal.
const AXIS_NODE_SIDE: [&str; 7] = [
    "clk",
    "rst",
    "node",
    "rx_src",
    "arr_valid",
    "arr_ctl",
    "refuse",
];

/// The module whose ports face a node's processor: the router, or the AXI4-Stream block
/// in front of it; and its ports that stay inside the node.
pub struct Side<'a> {
    router: &'a Module,
    /// The AXI4-Stream block, when the node has one.
    pub block: Option<&'a Module>,
}

/// The router's port that a node with the AXI4-Stream block passes out as it is.
const PASSED: &str = "rx_error";

impl<'a> Side<'a> {
    pub fn router(router: &'a Module) -> Self {
        Side {
            router,
            block: None,
        }
    }

    pub fn axis(router: &'a Module, block: &'a Module) -> Self {
        Side {
            router,
            block: Some(block),
        }
    }

    pub fn is_axis(&self) -> bool {
        self.block.is_some()
    }

    /// The processor-side ports, in port order, as their modules declare them:
    /// (name, width, direction, doc): the router's; or the AXI4-Stream block's and the
    /// router's `rx_error`.
    pub fn processor_ports(&self) -> Vec<(&'a str, u32, Direction, &'a str)> {
        let facing = |module: &'a Module, keep: &dyn Fn(&str) -> bool| {
            module
                .ports()
                .filter(|(_, s)| keep(&s.name))
                .map(|(_, s)| match s.kind {
                    SignalKind::Port(direction) => {
                        (s.name.as_str(), s.width, direction, s.doc.as_str())
                    }
                    SignalKind::Internal => unreachable!("ports() gives ports"),
                })
                .collect::<Vec<_>>()
        };
        match self.block {
            None => facing(self.router, &|name| !NODE_SIDE.contains(&name)),
            Some(block) => {
                let mut ports = facing(block, &|name| {
                    !AXIS_NODE_SIDE.contains(&name) && !axis::ROUTER_SIDE.contains(&name)
                });
                ports.extend(facing(self.router, &|name| name == PASSED));
                ports
            }
        }
    }
}

/// The node's signals the AXI4-Stream block reads besides the router's.
pub struct NodeInside {
    pub clock: SignalId,
    pub reset: SignalId,
    pub node: SignalId,
    pub arr_valid: SignalId,
    pub arr_ctl: SignalId,
}

/// Instantiates the AXI4-Stream block `block` in `m`, in front of the router whose
/// instance `router_connections` binds: the router's processor side on wires `r_<port>`,
/// the block's streams and the router's `rx_error` as `m`'s ports, its refusal on `refuse`.
pub fn axis_block(
    m: &mut Module,
    (router, router_connections): (&Module, &mut Connections),
    block: &Module,
    inside: NodeInside,
    refuse: SignalId,
) {
    let mut connections = Connections::of(block)
        .bind(&block.port_named("clk"), inside.clock)
        .bind(&block.port_named("rst"), inside.reset)
        .bind(&block.port_named("node"), inside.node)
        .bind(&block.port_named("arr_valid"), inside.arr_valid)
        .bind(&block.port_named("arr_ctl"), inside.arr_ctl);
    for (name, width, direction, doc) in Side::router(router).processor_ports() {
        if name == PASSED {
            // Never in a working network; passed out as the router gives it.
            let port = m.port(name, width, direction, doc);
            router_connections.add(&router.port_named(name), port);
            continue;
        }
        let wire = m.internal(&format!("r_{name}"), width, &format!("router: {doc}"));
        router_connections.add(&router.port_named(name), wire);
        connections.add(&block.port_named(name), wire);
    }
    for (name, width, direction, doc) in Side::axis(router, block).processor_ports() {
        if name != PASSED {
            let port = m.port(name, width, direction, doc);
            connections.add(&block.port_named(name), port);
        }
    }
    connections.add(&block.port_named("refuse"), refuse);
    m.instance(
        "u_axis",
        connections,
        "The AXI4-Stream processor side and the receive FIFO.",
    );
}
