//! The self-test top of a board (docs/board.md): the generated network
//! ([`crate::rtl::network::whole`]) with, at every node, a traffic generator and a checker
//! ([`traffic`]), four counters summed over the nodes ([`blocks`]), a reporter that prints
//! them on a UART once a period ([`report`]), and the LEDs.
//!
//! In: [`SelftestParams`] (the network, the board's clock and the polarity of its pins).
//! Out: a [`Design`] whose top has the ports a board's constraints name
//! ([`PORTS`]): `clk`, `btn_reset`, `btn_pause`, `led_pass`, `led_fail`, `led_activity`
//! and `uart_tx`.

pub mod blocks;
pub mod linear;
pub mod report;
pub mod traffic;

use crate::bits::bits_for;
use crate::random::SplitMix64;
use crate::rtl::ir::{Connections, Design, Direction, Expr, Module, SignalId, Timing};
use crate::rtl::network::whole::{self, NetworkParams, node_word};
use std::collections::BTreeMap;
use thiserror::Error;
use traffic::TrafficShape;

/// The UART's rate.
pub const BAUD: u64 = 115_200;

/// The top's ports, in order: (name, direction, what it is on the board).
pub const PORTS: [(&str, Direction, &str); 7] = [
    ("clk", Direction::Input, "the board's oscillator"),
    ("btn_reset", Direction::Input, "the reset button"),
    (
        "btn_pause",
        Direction::Input,
        "the pause button: no new messages while held",
    ),
    (
        "led_pass",
        Direction::Output,
        "no corruption so far, and traffic flowing",
    ),
    ("led_fail", Direction::Output, "a message arrived corrupted"),
    (
        "led_activity",
        Direction::Output,
        "toggles every 4096 delivered messages",
    ),
    (
        "uart_tx",
        Direction::Output,
        "the counters, a line per report period, 115200 8N1",
    ),
];

/// The bit of the delivered count the activity LED shows: it toggles every 4096.
const ACTIVITY_BIT: u32 = 12;

/// What to build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelftestParams {
    /// The network, whose top is `<top>_network`.
    pub network: NetworkParams,
    pub top: String,
    /// The board's clock.
    pub clock_hz: u64,
    /// Clocks between two lines on the UART: the clock's frequency (one second) on a
    /// board, fewer in simulation.
    pub report_cycles: u64,
    /// Seed of every node's LFSR.
    pub seed: u64,
    /// The top's pins that are active low on the board, by name (any of [`PORTS`] but
    /// `clk`).
    pub active_low: Vec<&'static str>,
}

/// Why a self-test top cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SelftestError {
    #[error(
        "--report-cycles {cycles} is shorter than one line on the UART: {line} clocks ({chars} characters of 10 bits at {BAUD} baud from a {hz} Hz clock)"
    )]
    ReportTooShort {
        cycles: u64,
        line: u64,
        chars: u64,
        hz: u64,
    },
    #[error("--report-cycles {0} is too long: at most 2^32 clocks")]
    ReportTooLong(u64),
    #[error("the self-test needs a network of at least 2 nodes, and {0} has 1")]
    OneNode(String),
    #[error("the self-test's CRC covers node words of at most 64 bits, and {network}'s are {bits}")]
    WideWords { network: String, bits: u32 },
}

impl SelftestParams {
    /// The self-test of `network` (whose top must be `<top>_network`) on a board clocked
    /// at `clock_hz`, a line every `report_cycles` clocks.
    pub fn new(
        network: NetworkParams,
        top: &str,
        clock_hz: u64,
        report_cycles: u64,
        seed: u64,
        active_low: Vec<&'static str>,
    ) -> Result<Self, SelftestError> {
        let line = report::line_cycles(bit_cycles(clock_hz));
        if report_cycles <= line {
            return Err(SelftestError::ReportTooShort {
                cycles: report_cycles,
                line,
                chars: report::line_length(),
                hz: clock_hz,
            });
        }
        if report_cycles > 1 << 32 {
            return Err(SelftestError::ReportTooLong(report_cycles));
        }
        if network.nodes() < 2 {
            return Err(SelftestError::OneNode(network.plan().name()));
        }
        let bits = network.router.address_bits();
        if bits > 64 {
            return Err(SelftestError::WideWords {
                network: network.plan().name(),
                bits,
            });
        }
        Ok(SelftestParams {
            network,
            top: top.to_string(),
            clock_hz,
            report_cycles,
            seed,
            active_low,
        })
    }

    /// The UART's bit, in clocks: the clock over [`BAUD`], rounded.
    pub fn bit_cycles(&self) -> u64 {
        bit_cycles(self.clock_hz)
    }

    /// Node `v`'s LFSR seed: drawn from the seed, never 0.
    pub fn node_seed(&self, v: usize) -> u32 {
        let mut random = SplitMix64::new(self.seed ^ (v as u64).wrapping_mul(0x9E37_79B9));
        loop {
            let seed = random.next_u64() as u32;
            if seed != 0 {
                return seed;
            }
        }
    }

    fn shape(&self, router: &Module) -> TrafficShape {
        let p = &self.network;
        TrafficShape {
            nodes: p.nodes(),
            words: (0..p.nodes()).map(|v| node_word(p, v)).collect(),
            address_bits: p.router.address_bits(),
            routes: p.ports() as u64,
            attempt_bits: port_width(router, "res_attempts"),
            max_bytes: p.router.max_bytes.into(),
        }
    }
}

/// The width of `module`'s port `name`.
fn port_width(module: &Module, name: &str) -> u32 {
    module
        .ports()
        .find(|(_, port)| port.name == name)
        .map(|(_, port)| port.width)
        .unwrap_or_else(|| panic!("module {} has a port {name}", module.name))
}

fn bit_cycles(clock_hz: u64) -> u64 {
    (clock_hz + BAUD / 2) / BAUD
}

/// The self-test design: the network's modules, the blocks, and the top.
pub fn design(params: &SelftestParams) -> Design {
    let network = whole::design(&params.network);
    let router_name = format!("{}_router", params.network.top);
    let router = network
        .module(&router_name)
        .expect("the network has its router");
    let shape = params.shape(router);
    let top = &params.top;
    let n = shape.nodes;
    let lfsr = blocks::lfsr_module(top, shape.random_bits());
    let generator = traffic::generator_module(top, &lfsr, &shape);
    let checker = traffic::checker_module(top, &shape);
    let inc_bits = bits_for(2 * n as u64 + 1);
    let counter = blocks::counter_module(top, inc_bits);
    let uart = blocks::uart_module(top, params.bit_cycles());
    let reporter = report::report_module(top, &uart, params.report_cycles);
    let reset = blocks::reset_module(top);
    let top_module = top_module(
        params,
        &shape,
        network.top(),
        [&generator, &checker, &counter, &reporter, &reset],
    );
    let mut modules = network.modules;
    modules.extend([
        lfsr, generator, checker, counter, uart, reporter, reset, top_module,
    ]);
    let mut design_params: BTreeMap<String, u64> = network.params;
    design_params.insert("clock_hz".to_string(), params.clock_hz);
    design_params.insert("report_cycles".to_string(), params.report_cycles);
    design_params.insert("seed".to_string(), params.seed);
    Design {
        modules,
        params: design_params,
        summary: format!(
            "self-test of the {}: traffic and a checker at every node, counters on a UART",
            params.network.describe()
        ),
        timing: Timing::Synchronous,
    }
}

/// The top's wires of one node's processor side, by the router's port name.
type NodeWires = BTreeMap<String, SignalId>;

/// The top: the reset, the network, a generator and a checker per node, the counters, the
/// reporter and the LEDs.
fn top_module(
    params: &SelftestParams,
    shape: &TrafficShape,
    network: &Module,
    [generator, checker, counter, reporter, reset]: [&Module; 5],
) -> Module {
    let n = shape.nodes;
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!("Self-test of the {}.", params.network.describe()),
            "Every node sends random messages to random others and checks what it receives;",
            "the counts of sent, delivered, failed and corrupted messages go out on uart_tx.",
        ],
    );
    let mut pins = BTreeMap::new();
    for (name, direction, doc) in PORTS {
        let low = params.active_low.contains(&name);
        let doc = match low {
            true => format!("{doc} (active low)"),
            false => doc.to_string(),
        };
        pins.insert(name, (m.port(name, 1, direction, &doc), low));
    }
    // A pin as the logic sees it: high when active.
    let level = |name: &str| {
        let (signal, low) = pins[name];
        match low {
            true => !Expr::from(signal),
            false => Expr::from(signal),
        }
    };
    let clk = pins["clk"].0;
    let rst = m.internal("rst", 1, "the reset of everything but the reset block");
    let pause = m.internal("pause", 1, "the pause button, on the clock");
    m.instance(
        "u_reset",
        Connections::of(reset)
            .bind(&reset.port_named("clk"), clk)
            .bind(&reset.port_named("rst"), Expr::bit(false))
            .bind(&reset.port_named("reset_button"), level("btn_reset"))
            .bind(&reset.port_named("pause_button"), level("btn_pause"))
            .bind(&reset.port_named("reset"), rst)
            .bind(&reset.port_named("pause"), pause),
        "Power-up and button reset; its own rst is tied low (see the module).",
    );

    let nodes: Vec<NodeWires> = (0..n)
        .map(|v| node_wires(&mut m, params, network, v))
        .collect();
    let mut connections = Connections::of(network)
        .bind(&network.port_named("clk"), clk)
        .bind(&network.port_named("rst"), rst);
    for (v, wires) in nodes.iter().enumerate() {
        let prefix = params.network.node_prefix(v);
        for (name, &signal) in wires {
            connections.add(&network.port_named(&format!("{prefix}_{name}")), signal);
        }
        connections.add(
            &network.port_named(&format!("{prefix}_fault")),
            Expr::bit(false),
        );
        connections.add(
            &network.port_named(&format!("{prefix}_link_fault")),
            Expr::zero(params.network.ports() as u32),
        );
    }
    m.instance(
        "u_network",
        connections,
        "The network under test; no node or link marked faulty.",
    );

    let mut events: BTreeMap<&str, Vec<Expr>> = BTreeMap::new();
    let kw = shape.address_bits;
    let ib = shape.index_bits();
    for (v, wires) in nodes.iter().enumerate() {
        let prefix = params.network.node_prefix(v);
        let word = Expr::konst(kw, shape.words[v]);
        let mut pulse = |m: &mut Module, name: &'static str| {
            let signal = m.internal(
                &format!("{prefix}_{name}"),
                1,
                &format!(
                    "node {}: one clock per message {name}",
                    params.network.plan().node_name(v)
                ),
            );
            events.entry(name).or_default().push(signal.into());
            signal
        };
        let sent = pulse(&mut m, "sent");
        let delivered = pulse(&mut m, "delivered");
        let failed = pulse(&mut m, "failed");
        let bad = pulse(&mut m, "bad");
        let corrupt = pulse(&mut m, "corrupt");
        let mut gen_connections = Connections::of(generator)
            .bind(&generator.port_named("clk"), clk)
            .bind(&generator.port_named("rst"), rst)
            .bind(
                &generator.port_named("seed"),
                Expr::konst(32, params.node_seed(v).into()),
            )
            .bind(&generator.port_named("node"), word.clone())
            .bind(
                &generator.port_named("self_index"),
                Expr::konst(ib, v as u64),
            )
            .bind(&generator.port_named("pause"), pause)
            .bind(&generator.port_named("sent"), sent)
            .bind(&generator.port_named("delivered"), delivered)
            .bind(&generator.port_named("failed"), failed)
            .bind(&generator.port_named("bad"), bad);
        for name in GENERATOR_SIDE {
            gen_connections.add(&generator.port_named(name), wires[name]);
        }
        m.instance(&format!("u_{prefix}_traffic"), gen_connections, "");
        let mut check_connections = Connections::of(checker)
            .bind(&checker.port_named("clk"), clk)
            .bind(&checker.port_named("rst"), rst)
            .bind(&checker.port_named("node"), word)
            .bind(&checker.port_named("corrupt"), corrupt);
        for name in CHECKER_SIDE {
            check_connections.add(&checker.port_named(name), wires[name]);
        }
        m.instance(&format!("u_{prefix}_check"), check_connections, "");
    }

    let inc_bits = port_width(counter, "inc");
    let bad = events.remove("bad").expect("every node's bad verdicts");
    let mut counts = Vec::new();
    for name in report::FIELDS {
        let mut pulses = events.remove(name).expect("every node's events");
        if name == "corrupt" {
            pulses.extend(bad.iter().cloned());
        }
        let count = m.internal(
            &format!("{name}_count"),
            blocks::COUNTER_BITS,
            &format!("messages {name}, summed over the nodes"),
        );
        m.instance(
            &format!("u_{name}_counter"),
            Connections::of(counter)
                .bind(&counter.port_named("clk"), clk)
                .bind(&counter.port_named("rst"), rst)
                .bind(
                    &counter.port_named("inc"),
                    blocks::popcount(pulses, inc_bits),
                )
                .bind(&counter.port_named("count"), count),
            match name {
                "corrupt" => "Corrupted arrivals, and verdicts no working network gives.",
                _ => "",
            },
        );
        counts.push(count);
    }
    let flowing = m.internal(
        "flowing",
        1,
        "a message was delivered in the last report period",
    );
    let mut report_connections = Connections::of(reporter)
        .bind(&reporter.port_named("clk"), clk)
        .bind(&reporter.port_named("rst"), rst)
        .bind(&reporter.port_named("tx"), pins["uart_tx"].0)
        .bind(&reporter.port_named("flowing"), flowing);
    for (name, &count) in report::FIELDS.iter().zip(&counts) {
        report_connections.add(&reporter.port_named(name), count);
    }
    m.instance("u_report", report_connections, "The counters on the UART.");

    let failing = Expr::from(counts[3]).ne(Expr::zero(blocks::COUNTER_BITS));
    let shown = [
        ("led_pass", (!failing.clone()).and(flowing.into())),
        ("led_fail", failing),
        (
            "led_activity",
            Expr::Slice {
                signal: counts[1],
                lo: ACTIVITY_BIT,
                width: 1,
            },
        ),
    ];
    for (name, value) in shown {
        let (signal, low) = pins[name];
        let value = match low {
            true => !value,
            false => value,
        };
        m.assign(signal, value, "");
    }
    m
}

/// The router's processor-side ports the generator drives or reads.
const GENERATOR_SIDE: [&str; 8] = [
    "tx_valid",
    "tx_ready",
    "tx_data",
    "tx_last",
    "tx_dst",
    "res_valid",
    "res_status",
    "res_attempts",
];

/// The router's processor-side ports the checker reads.
const CHECKER_SIDE: [&str; 7] = [
    "rx_valid", "rx_data", "rx_first", "rx_last", "rx_src", "rx_len", "rx_error",
];

/// Node `v`'s processor-side wires on the top, one per port of the network top named
/// `<prefix>_<name>` for each name the generator or the checker takes.
fn node_wires(m: &mut Module, params: &SelftestParams, network: &Module, v: usize) -> NodeWires {
    let prefix = params.network.node_prefix(v);
    GENERATOR_SIDE
        .iter()
        .chain(&CHECKER_SIDE)
        .map(|&name| {
            let full = format!("{prefix}_{name}");
            let (_, port) = network
                .ports()
                .find(|(_, port)| port.name == full)
                .unwrap_or_else(|| panic!("the network has a port {full}"));
            let signal = m.internal(&full, port.width, &port.doc);
            (name.to_string(), signal)
        })
        .collect()
}
