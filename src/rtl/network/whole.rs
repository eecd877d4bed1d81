//! A whole network of the network-switch paper (Smit et al. 1991; see docs/papers.md) in
//! one design (docs/network.md, "The network in RTL"): at every node a switch
//! ([`super::switch`]) and a router ([`super::router`]) with its route generator on K(d,k),
//! its route table on any other topology (docs/topologies.md), the links wired as the
//! topology's wiring says.
//!
//! In: [`NetworkParams`] (the router, which knows the topology; the switches' arbiter and
//! clocking, a built-in wiring fault for verification, the top's name). Out: a [`Design`]
//! of the router's and the switch's modules, a node module (`<top>_node`: one switch, one
//! router, the router on port 0) and the top, which instantiates one node per node and
//! wires out-link p of node v to in-link q of the node it leads to, NACK back the other way
//! ([`links`], from the topology's [`Wiring`](crate::fabric::wiring::Wiring), the one the
//! golden model wires with).
//!
//! Every node's processor side is a group of top ports named after it (`n012_tx_valid` for
//! the Kautz word 012, `n7_tx_valid` for node 7 of any other topology), and so are its
//! fault inputs: `n012_fault` makes node 012 faulty (its in-neighbours' switches take no
//! new worm into it, as the model's fault mask does), `n012_link_fault` bit p-1 makes its
//! out-link on port p faulty.
//!
//! A switch port without a link (de Bruijn's self-loops, a mesh's boundary) is wired, in
//! node and port order, to an input without one, by an idle link that its sender marks
//! faulty, as the model does: no worm ever takes it, and every wire of the top has both
//! ends, as lint asks.
//!
//! Self-timed ([`SwitchClocking::SelfTimed`]), every node's switch makes the node's clock
//! from its neighbours' clocks, which run beside each link (`cl` with the words, `cla` back
//! with the NACK), and its router runs on it: the top has one `rst` and no clock, and shows
//! each node's clock as `n012_node_clk`. [`links`], [`node_word`] and [`out_fault_bits`]
//! give what the top wires and drives, for a testbench that wires the nodes itself (with
//! wire delays, which the top's wires lack).

use super::axis::{self, AxisError, AxisParams};
use super::processor_side::{NodeInside, Side, axis_block};
use super::router::{self, RouteSource, RouterError, RouterParams};
use super::switch::{self, SwitchClocking, SwitchParams};
use crate::choice::{Choice, choice};
use crate::fabric::switch::{Arbiter, Flow, SwitchConfig};
use crate::fabric::wiring::End;
use crate::network::acked::Bounds;
use crate::network::plan::{Plan, TablePlan};
use crate::rtl::ir::{Connections, Design, Direction, Expr, Module, SignalId, Timing};
use crate::topology::kautz::{Kautz, Letter};
use std::sync::Arc;
use thiserror::Error;

/// Default top module name.
pub const DEFAULT_TOP: &str = "kautz_network";

/// Most nodes a generated network holds: each is a switch, a router and a route generator.
pub const MAX_NODES: u64 = 1024;

choice! {
    /// A deliberate wiring fault, built in to show that verification catches a broken
    /// network.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum NetworkFault {
        LinksSwapped = "links-swapped":
            "The first node's out-links on ports 1 and 2 are swapped, NACK wires with them: \
            worms leave it for the wrong neighbour (needs d >= 2)",
        NacksSwapped = "nacks-swapped":
            "The NACK wires of the first node's out-links on ports 1 and 2 are swapped: a \
            refusal beyond one link stops the worm on the other, and the refused worm's \
            sender never learns of it (needs d >= 2)",
    }
}

/// Why network parameters are refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NetworkError {
    #[error(transparent)]
    Router(#[from] RouterError),
    #[error(
        "K({d},{k}) has {nodes} nodes, each a switch, a router and a route generator: generate networks of at most {MAX_NODES} nodes"
    )]
    TooLarge { d: usize, k: usize, nodes: String },
    #[error("{network} has {nodes} nodes: generate networks of at most {MAX_NODES} nodes")]
    TooManyNodes { network: String, nodes: usize },
    #[error(
        "the network's built-in faults swap two out-links of a node, which needs d >= 2, got d = 1"
    )]
    NoLinksToSwap,
    #[error(transparent)]
    Axis(#[from] AxisError),
    #[error(
        "--interface axis needs a synchronous network: a self-timed node's processor side runs on its own clock"
    )]
    AxisSelfTimed,
}

/// What to build: the network of the router's topology, every router as `router` says (its
/// routes and buffer),
/// every switch arbitrating with `arbiter` and clocked by `clocking`, as the module `top`,
/// with `fault` built in for verification only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkParams {
    pub router: RouterParams,
    pub arbiter: Arbiter,
    /// The switches' flow control; with buffers the routers acknowledge what they
    /// receive (docs/flow-control.md).
    pub flow: Flow,
    pub clocking: SwitchClocking,
    /// With `Some(rx_bytes)`, every node's processor side is AXI4-Stream, with a receive
    /// FIFO of that many bytes ([`axis`]); else the router's own ports.
    pub axis: Option<u64>,
    pub top: String,
    pub fault: Option<NetworkFault>,
}

impl NetworkParams {
    /// The fault-free network of K(d,k) with routers of `max_bytes` bytes, under `top`.
    pub fn new(
        d: u64,
        k: u64,
        max_bytes: u64,
        arbiter: Arbiter,
        top: &str,
    ) -> Result<Self, NetworkError> {
        let router = RouterParams::new(d, k, max_bytes, &format!("{top}_router"))?;
        let graph = *router.graph().expect("a router on K(d,k)");
        if graph.node_count().is_none_or(|n| n > MAX_NODES) {
            return Err(NetworkError::TooLarge {
                d: graph.d(),
                k: graph.k(),
                nodes: graph.node_count_decimal(),
            });
        }
        Ok(NetworkParams::of(router, arbiter, top))
    }

    /// The fault-free network of `plan`, its routers holding route tables, with buffers of
    /// `max_bytes` bytes, under `top`.
    pub fn table(
        plan: Arc<TablePlan>,
        max_bytes: u64,
        arbiter: Arbiter,
        top: &str,
    ) -> Result<Self, NetworkError> {
        let nodes = plan.node_count();
        if nodes as u64 > MAX_NODES {
            return Err(NetworkError::TooManyNodes {
                network: plan.name(),
                nodes,
            });
        }
        let router = RouterParams::table(plan, max_bytes, &format!("{top}_router"))?;
        Ok(NetworkParams::of(router, arbiter, top))
    }

    fn of(router: RouterParams, arbiter: Arbiter, top: &str) -> Self {
        NetworkParams {
            router,
            arbiter,
            flow: Flow::Nack,
            clocking: SwitchClocking::Synchronous,
            axis: None,
            top: top.to_string(),
            fault: None,
        }
    }

    /// The network whose nodes' processor sides are AXI4-Stream, with receive FIFOs of
    /// `rx_bytes` bytes (at least a whole message; synchronous networks only).
    pub fn with_axis(self, rx_bytes: u64) -> Result<Self, NetworkError> {
        let max = u64::from(self.router.max_bytes);
        axis::check(max, self.router.data_bits, rx_bytes)?;
        if self.clocking == SwitchClocking::SelfTimed {
            return Err(NetworkError::AxisSelfTimed);
        }
        Ok(NetworkParams {
            axis: Some(rx_bytes),
            ..self
        })
    }

    /// The network whose switches are clocked by `clocking`: self-timed, each node runs on
    /// the clock its switch makes from its neighbours', and the top has no clock input.
    pub fn with_clocking(self, clocking: SwitchClocking) -> Self {
        NetworkParams { clocking, ..self }
    }

    /// The network whose switches have flow control `flow`: under vct and saf, buffers of
    /// the longest worm and routers that acknowledge every message, waiting the bound of
    /// an attempt for an ACK ([`Bounds`]).
    pub fn with_flow(self, flow: Flow) -> Self {
        NetworkParams {
            flow,
            router: self.router.with_flow(flow),
            ..self
        }
    }

    /// The network whose links, routers' buffers and processor sides carry words of
    /// `data_bits` bits ([`RouterParams::with_data_bits`]).
    pub fn with_data_bits(self, data_bits: u64) -> Result<Self, NetworkError> {
        Ok(NetworkParams {
            router: self.router.with_data_bits(data_bits)?,
            ..self
        })
    }

    pub fn with_fault(self, fault: Option<NetworkFault>) -> Result<Self, NetworkError> {
        if fault.is_some() && self.ports() < 2 {
            return Err(NetworkError::NoLinksToSwap);
        }
        Ok(NetworkParams { fault, ..self })
    }

    /// K(d,k), when the routers hold route generators.
    pub fn graph(&self) -> Option<&Kautz> {
        self.router.graph()
    }

    /// The topology as the network model runs it: the same wiring, addresses and routes.
    pub fn plan(&self) -> Arc<dyn Plan> {
        self.router.plan()
    }

    /// The nodes, N.
    pub fn nodes(&self) -> usize {
        self.plan().node_count()
    }

    /// d: the network ports of every switch.
    pub fn ports(&self) -> usize {
        self.router.ports()
    }

    /// The switch of every node.
    pub fn switch(&self) -> SwitchParams {
        let bits = u64::from(self.router.data_bits);
        let mut config = SwitchConfig::new(self.ports() as u64, bits, self.arbiter)
            .expect("the router's degree and words suit a switch");
        if self.flow != Flow::Nack {
            let words = Bounds::of(self.plan().as_ref(), self.router.max_bytes).worm - 1;
            config = config
                .with_flow(self.flow, words)
                .expect("a network's longest worm fits a buffer");
        }
        SwitchParams::new(config)
            .with_clocking(self.clocking)
            .with_top(&format!("{}_switch", self.top))
    }

    /// "network of K(2,3): 12 nodes, 3x3 switches, routers with 16-byte buffers (B = 16)",
    /// "network of B(2,3): 8 nodes, 3x3 switches, routers with 16-byte buffers and route
    /// tables of 72 routes of at most 5 hops, 13-bit words (B = 2)", "self-timed network of
    /// ..." when its switches make their own clocks.
    pub fn describe(&self) -> String {
        let clocking = match self.clocking {
            SwitchClocking::Synchronous => "",
            SwitchClocking::SelfTimed => "self-timed ",
        };
        let tables = match &self.router.source {
            RouteSource::Generator(_) => String::new(),
            RouteSource::Table { table, .. } => format!(
                " and route tables of {}",
                table.describe(self.router.letter_bits())
            ),
        };
        let flow = match self.flow {
            Flow::Nack => String::new(),
            flow => format!(" with {} buffers", flow.name()),
        };
        let acked = match self.router.ack_timeout {
            None => String::new(),
            Some(timeout) => format!(", acknowledged delivery (ACK timeout {timeout})"),
        };
        format!(
            "{clocking}network of {}: {} nodes, {p}x{p} switches{flow}, routers with {}{tables} (B = {}){acked}",
            self.plan().name(),
            self.nodes(),
            self.router.buffers(),
            self.router.route_cycles(),
            p = self.ports() + 1
        )
    }

    /// The prefix of node `v`'s ports on the top: `n` and its Kautz word ([`node_prefix`]),
    /// or its index on any other topology (`n7`).
    pub fn node_prefix(&self, v: usize) -> String {
        match self.graph() {
            Some(graph) => node_prefix(graph, graph.word_at(v).letters()),
            None => format!("n{v}"),
        }
    }
}

/// The prefix of node `letters`' ports: `n` and its letters (`n012`), the letters apart
/// (`n10_3_7`) when a letter has two digits.
pub fn node_prefix(graph: &Kautz, letters: &[Letter]) -> String {
    let parts: Vec<String> = letters.iter().map(u8::to_string).collect();
    match graph.d() {
        0..=9 => format!("n{}", parts.concat()),
        _ => format!("n{}", parts.join("_")),
    }
}

/// One link of the network as the top wires it: out-link `out_port` of node `from` carries
/// its words to in-link `in_port` of node `to` (nodes by their index in the graph's order,
/// ports 1..=d), and the receiver's NACK on that in-link comes back to `from`'s
/// `out<nack_port>_nack`. Both faults show here and only here: `LinksSwapped` gives node 0's
/// out-links on ports 1 and 2 each other's `to` and `in_port`, `NacksSwapped` gives them
/// each other's `nack_port` (otherwise `nack_port` is `out_port`). An `idle` link joins a
/// port without a link to an input without one (see the module's docs): its sender marks
/// it faulty. A self-timed network's
/// clock wires follow the link, whatever the NACK does: `from`'s `out<out_port>_cl` drives
/// `to`'s `in<in_port>_cl`, and `to`'s `in<in_port>_cla` drives `from`'s `out<out_port>_cla`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetLink {
    pub from: usize,
    pub out_port: usize,
    pub to: usize,
    pub in_port: usize,
    pub nack_port: usize,
    pub idle: bool,
}

/// Every link of the network, as the top wires them: node 0's out-links on ports 1..=d,
/// then node 1's, and so on, so that out-link p of node v is at `v * d + p - 1`. Each node
/// is fed on each of its in-ports by exactly one link.
pub fn links(params: &NetworkParams) -> Vec<NetLink> {
    let wiring = params
        .plan()
        .wiring()
        .expect("a network's degree and size suit a wiring");
    let mut idle_inputs = (0..wiring.nodes())
        .flat_map(|v| (1..=wiring.ports()).map(move |q| End { node: v, port: q }))
        .filter(|&end| wiring.input(end.node, end.port).is_none());
    let mut links: Vec<NetLink> = (0..wiring.nodes())
        .flat_map(|v| (1..=wiring.ports()).map(move |p| (v, p)))
        .map(|(v, p)| {
            let (to, idle) = match wiring.output(v, p) {
                Some(to) => (to, false),
                None => (
                    idle_inputs.next().expect("as many idle inputs as outputs"),
                    true,
                ),
            };
            NetLink {
                from: v,
                out_port: p,
                to: to.node,
                in_port: to.port,
                nack_port: p,
                idle,
            }
        })
        .collect();
    let d = wiring.ports();
    with_fault(params.fault, &mut links[..d]);
    links
}

/// Node 0's out-links `out` with the built-in fault's swap.
fn with_fault(fault: Option<NetworkFault>, out: &mut [NetLink]) {
    match fault {
        Some(NetworkFault::LinksSwapped) => {
            let (one, two) = (out[0], out[1]);
            (out[0].to, out[0].in_port) = (two.to, two.in_port);
            (out[1].to, out[1].in_port) = (one.to, one.in_port);
        }
        Some(NetworkFault::NacksSwapped) => {
            (out[0].nack_port, out[1].nack_port) = (out[1].nack_port, out[0].nack_port);
        }
        None => {}
    }
}

/// The value of node `v`'s `node` input: its address (a Kautz word's letters, W bits
/// each; any other node's index), as [`RouterParams::address_word`] packs it.
pub fn node_word(params: &NetworkParams, v: usize) -> u64 {
    params.router.address_word(&params.plan().address(v))
}

/// The value of node `v`'s `out_fault` input when the nodes marked in `faulty` (by index)
/// are faulty and `link_fault` is v's `<prefix>_link_fault` (bit p-1: its out-link p):
/// bit p-1 is set when out-link p leads to a faulty node or is faulty itself. The top
/// computes exactly this from its fault inputs, over the same [`links`]; a testbench that
/// instantiates the nodes without the top drives it.
pub fn out_fault_bits(params: &NetworkParams, v: usize, faulty: &[bool], link_fault: u64) -> u64 {
    let d = params.ports();
    links(params)[v * d..(v + 1) * d]
        .iter()
        .filter(|link| link.idle || faulty[link.to] || link_fault >> (link.out_port - 1) & 1 == 1)
        .fold(0, |bits, link| bits | 1 << (link.out_port - 1))
}

/// The network's hardware.
pub fn design(params: &NetworkParams) -> Design {
    let router = router::design(&params.router);
    let switch = switch::design(&params.switch());
    let axis = params.axis.map(|rx_bytes| {
        let block = AxisParams::of(&params.router, router.top(), rx_bytes);
        axis::module(&format!("{}_axis", params.top), &block)
    });
    let side = match &axis {
        Some(block) => Side::axis(router.top(), block),
        None => Side::router(router.top()),
    };
    let node = node_module(params, router.top(), switch.top(), &side);
    let top = network_module(params, &side, &node);
    let mut modules = router.modules;
    modules.extend(switch.modules);
    modules.extend(axis.clone());
    modules.push(node);
    modules.push(top);
    let mut design_params = router.params;
    design_params.insert("nodes".to_string(), params.nodes() as u64);
    Design {
        params: design_params,
        summary: params.describe(),
        modules,
        timing: match params.clocking {
            SwitchClocking::Synchronous => Timing::Synchronous,
            SwitchClocking::SelfTimed => Timing::SelfTimed,
        },
    }
}

/// One node: its switch, and its router on the switch's port 0. Synchronous, both run on
/// `clk`; self-timed, the switch makes the node clock from its neighbours' clocks, which
/// come and go beside the words on every link (`cl` with the words, `cla` with the NACK),
/// and the router runs on it too.
fn node_module(params: &NetworkParams, router: &Module, switch: &Module, side: &Side) -> Module {
    let d = params.ports();
    let kw = params.router.address_bits();
    let tables = params.graph().is_none();
    let self_timed = params.clocking == SwitchClocking::SelfTimed;
    let mut doc = vec![
        format!("One node of the {}.", params.describe()),
        "The router sits on port 0 of the switch; ports 1..d are the network links.".to_string(),
    ];
    if self_timed {
        doc.push(
            "No clock comes in: the switch makes node_clk from its neighbours' clocks, and the router runs on it."
                .to_string(),
        );
    }
    let doc: Vec<&str> = doc.iter().map(String::as_str).collect();
    let mut m = Module::new(format!("{}_node", params.top), &doc);
    let (clock, reset) = node_clocking(&mut m, params.clocking);
    let node = m.input(
        "node",
        kw,
        match tables {
            false => "this node's word, a1 in the most significant letter",
            true => "this node's index",
        },
    );
    let out_fault = m.input(
        "out_fault",
        d as u32,
        "bit p-1: out-link p is faulty or leads to a faulty node; it takes no new worm",
    );
    let mut router_connections = Connections::of(router)
        .bind(&router.port_named("clk"), clock)
        .bind(&router.port_named("rst"), reset)
        .bind(&router.port_named("node"), node);
    let switch_clock = match params.clocking {
        SwitchClocking::Synchronous => "clk",
        SwitchClocking::SelfTimed => "node_clk",
    };
    let mut switch_connections = Connections::of(switch)
        .bind(&switch.port_named(switch_clock), clock)
        .bind(&switch.port_named("rst"), reset);
    let dw = params.router.data_bits;
    let (arr_valid, arr_ctl) = port0_wires(
        &mut m,
        dw,
        (router, &mut router_connections),
        (switch, &mut switch_connections),
    );
    let refuse = match side.is_axis() {
        false => {
            for (name, width, direction, doc) in Side::router(router).processor_ports() {
                let port = m.port(name, width, direction, doc);
                router_connections.add(&router.port_named(name), port);
            }
            Expr::zero(1)
        }
        true => {
            let inside = NodeInside {
                clock,
                reset,
                node,
                arr_valid,
                arr_ctl,
            };
            let block = side.block.expect("an AXI4-Stream node has the block");
            let refuse = m.internal("refuse", 1, "the receive FIFO refuses worms for the router");
            axis_block(
                &mut m,
                (router, &mut router_connections),
                block,
                inside,
                refuse,
            );
            refuse.into()
        }
    };
    // After the processor side, as the node's ports have always been listed.
    network_link_ports(
        &mut m,
        (switch, &mut switch_connections),
        (d, dw),
        self_timed,
    );
    switch_connections.add(
        &switch.port_named("fault"),
        Expr::concat(vec![out_fault.into(), refuse]),
    );
    m.instance(
        "u_router",
        router_connections,
        match tables {
            false => "The router and its route generator, on port 0.",
            true => "The router and its route table, on port 0.",
        },
    );
    m.instance(
        "u_switch",
        switch_connections,
        "The switch; the router never refuses a worm (out0_nack = 0), and port 0 is never faulty.",
    );
    m
}

/// The node's clock and reset: inputs when synchronous; self-timed, the reset comes in and
/// the clock, which the switch makes, goes out.
fn node_clocking(m: &mut Module, clocking: SwitchClocking) -> (SignalId, SignalId) {
    match clocking {
        SwitchClocking::Synchronous => {
            let clocking = m.clocked();
            (clocking.clock, clocking.reset)
        }
        SwitchClocking::SelfTimed => {
            let reset = m.input("rst", 1, "synchronous reset, active high, on node_clk");
            let clock = m.output(
                "node_clk",
                1,
                "this node's clock, made by its switch: the router's, and the processor side's",
            );
            (clock, reset)
        }
    }
}

/// The node's ports for the network links, each side the switch's: words come in on
/// in-links and go out on out-links, NACKs the other way; self-timed, each link's sender's
/// clock goes with its words (cl) and its receiver's clock with its NACK (cla).
fn network_link_ports(
    m: &mut Module,
    (switch, connections): (&Module, &mut Connections),
    (d, dw): (usize, u32),
    self_timed: bool,
) {
    for (side, towards, inward, nack, cl, cla) in [
        (
            "in",
            "in-link",
            true,
            "NACK back to its sender",
            "its sender's clock (cl)",
            "this node's clock back to its sender (cla)",
        ),
        (
            "out",
            "out-link",
            false,
            "NACK from its receiver",
            "this node's clock to its receiver (cl)",
            "its receiver's clock (cla)",
        ),
    ] {
        let clocks = [("cl", 1, true, cl), ("cla", 1, false, cla)];
        let clocks = if self_timed { &clocks[..] } else { &[] };
        for p in 1..=d {
            let words = [
                ("valid", 1, true, "a word this cycle"),
                ("ctl", 1, true, "type bit, a head or an EOD"),
                ("data", dw, true, "data"),
                ("nack", 1, false, nack),
            ];
            for &(suffix, width, forward, doc) in words.iter().chain(clocks) {
                let name = format!("{side}{p}_{suffix}");
                let doc = format!("{towards} {p}: {doc}");
                let direction = match forward == inward {
                    true => Direction::Input,
                    false => Direction::Output,
                };
                let port = m.port(&name, width, direction, &doc);
                connections.add(&switch.port_named(&name), port);
            }
        }
    }
}

/// The wires between the router and the switch's port 0, and the constant zero of the
/// router's NACK (it never refuses a worm).
fn port0_wires(
    m: &mut Module,
    dw: u32,
    (router, router_connections): (&Module, &mut Connections),
    (switch, switch_connections): (&Module, &mut Connections),
) -> (SignalId, SignalId) {
    let net_valid = m.internal("net_valid", 1, "router to switch input 0: a word");
    let net_ctl = m.internal("net_ctl", 1, "router to switch input 0: type bit");
    let net_data = m.internal("net_data", dw, "router to switch input 0: data");
    let net_nack = m.internal("net_nack", 1, "switch input 0's NACK to the router");
    let arr_valid = m.internal("arr_valid", 1, "switch output 0 to the router: a word");
    let arr_ctl = m.internal("arr_ctl", 1, "switch output 0 to the router: type bit");
    let arr_data = m.internal("arr_data", dw, "switch output 0 to the router: data");
    let port0 = [
        ("net_valid", "in0_valid", net_valid),
        ("net_ctl", "in0_ctl", net_ctl),
        ("net_data", "in0_data", net_data),
        ("net_nack", "in0_nack", net_nack),
        ("arr_valid", "out0_valid", arr_valid),
        ("arr_ctl", "out0_ctl", arr_ctl),
        ("arr_data", "out0_data", arr_data),
    ];
    for (at_router, at_switch, wire) in port0 {
        router_connections.add(&router.port_named(at_router), wire);
        switch_connections.add(&switch.port_named(at_switch), wire);
    }
    switch_connections.add(&switch.port_named("out0_nack"), Expr::zero(1));
    (arr_valid, arr_ctl)
}

/// The link words and NACK of one out-link, as the top's internal signals.
struct LinkWires {
    valid: SignalId,
    ctl: SignalId,
    data: SignalId,
    /// The receiving switch's NACK on its in-link.
    nack: SignalId,
    /// Self-timed only: the sender's clock (cl) and the receiver's (cla).
    clocks: Option<(SignalId, SignalId)>,
}

impl LinkWires {
    /// Node `prefix`'s out-link `p`, named after it.
    fn declare(m: &mut Module, prefix: &str, (p, dw): (usize, u32), self_timed: bool) -> Self {
        let doc = |what: &str| format!("node {}: out-link {p}, {what}", prefix);
        let mut link = LinkWires {
            valid: m.internal(&format!("{prefix}_out{p}_valid"), 1, &doc("a word")),
            ctl: m.internal(&format!("{prefix}_out{p}_ctl"), 1, &doc("type bit")),
            data: m.internal(&format!("{prefix}_out{p}_data"), dw, &doc("data")),
            nack: m.internal(
                &format!("{prefix}_out{p}_nack"),
                1,
                &doc("NACK from the node it leads to"),
            ),
            clocks: None,
        };
        if self_timed {
            link.clocks = Some((
                m.internal(
                    &format!("{prefix}_out{p}_cl"),
                    1,
                    &doc("this node's clock to the node it leads to"),
                ),
                m.internal(
                    &format!("{prefix}_out{p}_cla"),
                    1,
                    &doc("the clock of the node it leads to"),
                ),
            ));
        }
        link
    }

    /// Binds the wires to a node's link ports `<link>_valid`, `<link>_ctl`, `<link>_data`
    /// (and self-timed `<link>_cl`, `<link>_cla`), the NACK to `<nack_link>_nack`.
    fn bind(&self, bind: &mut impl FnMut(&str, Expr), link: &str, nack_link: &str) {
        bind(&format!("{link}_valid"), self.valid.into());
        bind(&format!("{link}_ctl"), self.ctl.into());
        bind(&format!("{link}_data"), self.data.into());
        bind(&format!("{nack_link}_nack"), self.nack.into());
        if let Some((cl, cla)) = self.clocks {
            bind(&format!("{link}_cl"), cl.into());
            bind(&format!("{link}_cla"), cla.into());
        }
    }
}

/// A node's own ports on the top, named after its word.
struct NodePorts<'r> {
    /// `n012`, before every port's name.
    prefix: String,
    /// The word as the documentation shows it.
    shown: String,
    /// Self-timed only: the node's clock.
    node_clk: Option<SignalId>,
    /// The processor side, each port with the router's name for it.
    processor: Vec<(&'r str, SignalId)>,
    fault: SignalId,
    link_fault: SignalId,
}

impl<'r> NodePorts<'r> {
    fn declare(m: &mut Module, params: &NetworkParams, side: &Side<'r>, v: usize) -> Self {
        let prefix = params.node_prefix(v);
        let shown = params.plan().node_name(v);
        let node_clk = (params.clocking == SwitchClocking::SelfTimed).then(|| {
            m.output(
                &format!("{prefix}_node_clk"),
                1,
                &format!("node {shown}: its clock, on which its processor-side ports change and are sampled"),
            )
        });
        let mut processor = Vec::new();
        for (name, width, direction, doc) in side.processor_ports() {
            let full = format!("{prefix}_{name}");
            let doc = format!("node {shown}: {doc}");
            processor.push((name, m.port(&full, width, direction, &doc)));
        }
        let fault = m.input(
            &format!("{prefix}_fault"),
            1,
            &format!("node {shown} is faulty: no worm is sent into it"),
        );
        let link_fault = m.input(
            &format!("{prefix}_link_fault"),
            params.ports() as u32,
            &format!("node {shown}: bit p-1, its out-link on port p is faulty"),
        );
        NodePorts {
            prefix,
            shown,
            node_clk,
            processor,
            fault,
            link_fault,
        }
    }
}

/// Everything the top has declared that the node instances bind.
struct TopWiring<'r> {
    /// The synchronous nodes' shared clock; none when self-timed.
    clock: Option<SignalId>,
    reset: SignalId,
    nodes: Vec<NodePorts<'r>>,
    /// The out-links by (node, port - 1).
    wires: Vec<Vec<LinkWires>>,
    /// The links ([`links`]), by sender.
    links: Vec<NetLink>,
    /// The same links by receiver, each node's in order of its in-ports.
    incoming: Vec<NetLink>,
}

/// The top: one node per node of the topology, the links as its wiring says ([`links`]).
fn network_module(params: &NetworkParams, side: &Side, node: &Module) -> Module {
    let (d, n) = (params.ports(), params.nodes());
    let dw = params.router.data_bits;
    let self_timed = params.clocking == SwitchClocking::SelfTimed;
    let named = match params.graph() {
        Some(_) => {
            "Every node's processor side is a group of ports named after its word; nXXX_fault"
        }
        None => "Every node's processor side is a group of ports named after its index; nXXX_fault",
    };
    let mut doc = vec![
        format!("The {},", params.describe()),
        "as the network-switch paper (Smit et al. 1991) builds it.".to_string(),
        named.to_string(),
        "makes node XXX faulty, nXXX_link_fault bit p-1 its out-link on port p.".to_string(),
    ];
    if params.graph().is_none() {
        doc.push(
            "A port without a link is wired to an input without one and marked faulty: idle."
                .to_string(),
        );
    }
    if self_timed {
        doc.extend([
            "No clock comes in: each node's switch makes its clock from its neighbours',"
                .to_string(),
            "whose wires run beside each link's words and NACK; nXXX_node_clk is node XXX's."
                .to_string(),
        ]);
    }
    let doc: Vec<&str> = doc.iter().map(String::as_str).collect();
    let mut m = Module::new(params.top.clone(), &doc);
    // The synchronous nodes share the top's clock; a self-timed node's clock is its own.
    let (clock, reset) = match params.clocking {
        SwitchClocking::Synchronous => {
            let clocking = m.clocked();
            (Some(clocking.clock), clocking.reset)
        }
        SwitchClocking::SelfTimed => (
            None,
            m.input(
                "rst",
                1,
                "synchronous reset, active high, of every node on its own node clock",
            ),
        ),
    };
    let nodes: Vec<NodePorts> = (0..n)
        .map(|v| NodePorts::declare(&mut m, params, side, v))
        .collect();
    let wires = nodes
        .iter()
        .map(|ports| {
            (1..=d)
                .map(|p| LinkWires::declare(&mut m, &ports.prefix, (p, dw), self_timed))
                .collect()
        })
        .collect();
    let links = links(params);
    let mut incoming = links.clone();
    incoming.sort_by_key(|link| (link.to, link.in_port));
    let top = TopWiring {
        clock,
        reset,
        nodes,
        wires,
        links,
        incoming,
    };
    for v in 0..n {
        node_instance(&mut m, params, node, &top, v);
    }
    m
}

/// Node `v`'s instance: its clocking, word and out-link faults, its processor side, and
/// its in-links and out-links.
fn node_instance(m: &mut Module, params: &NetworkParams, node: &Module, top: &TopWiring, v: usize) {
    let d = params.ports();
    let ports = &top.nodes[v];
    let outgoing = &top.links[v * d..(v + 1) * d];
    let out_fault = Expr::concat(
        outgoing
            .iter()
            .rev()
            .map(|link| {
                // An idle link is faulty whatever its node and link inputs say.
                let to = match link.idle {
                    true => Expr::bit(true),
                    false => top.nodes[link.to].fault.into(),
                };
                to.or(Expr::Slice {
                    signal: ports.link_fault,
                    lo: link.out_port as u32 - 1,
                    width: 1,
                })
            })
            .collect(),
    );
    let mut connections = Connections::of(node);
    let mut bind = |name: &str, value: Expr| connections.add(&node.port_named(name), value);
    bind("rst", top.reset.into());
    bind(
        "node",
        Expr::konst(params.router.address_bits(), node_word(params, v)),
    );
    bind("out_fault", out_fault);
    match top.clock {
        Some(clock) => bind("clk", clock.into()),
        None => {
            let node_clk = ports.node_clk.expect("a self-timed node has its clock");
            bind("node_clk", node_clk.into());
        }
    }
    for &(name, signal) in &ports.processor {
        bind(name, signal.into());
    }
    for link in &top.incoming[v * d..(v + 1) * d] {
        let q = link.in_port;
        top.wires[link.from][link.out_port - 1].bind(
            &mut bind,
            &format!("in{q}"),
            &format!("in{q}"),
        );
    }
    for link in outgoing {
        let p = link.out_port;
        top.wires[v][p - 1].bind(
            &mut bind,
            &format!("out{p}"),
            &format!("out{}", link.nack_port),
        );
    }
    m.instance(
        &format!("u_{}", ports.prefix),
        connections,
        &format!("Node {}.", ports.shown),
    );
}
