//! The router of the network-switch paper (Smit et al. 1991): one per node, between its
//! processor and port 0 of its switch, with the route generator of the route-generator paper
//! (Smit et al. 1991) beside it on K(d,k), a route table on every other network
//! ([`super::route_table`]) (docs/network.md, "The router"; docs/papers.md lists both
//! papers).
//!
//! In: [`RouterParams`] (where routes come from, the message buffer's size, a built-in
//! fault for verification, the top's name). Out: a [`Design`] of the route generator's
//! modules (`<top>_route_gen` and its blocks) or the route table (`<top>_route_table`) and
//! the router's top, which computes exactly what the
//! network model's router (src/models/network/router.rs) computes in every cycle:
//! - **loader**: takes the message's bytes into the message buffer (a [`Memory`] of
//!   `max_bytes` bytes, written at the byte's index), counts them, notes a message too
//!   long, and starts the route generator (`init`) with the first byte;
//! - **sequencer**: a state machine (idle, route, ready, send, drop) with the timer of B
//!   cycles that decides when a route is taken (T_i), when a head is sent (S_i) and what
//!   the outcome is (V);
//! - **worm**: the registers that walk the current attempt's worm word by word: the route
//!   shifted one hop per word (on K(d,k) with the letter it came from, from which the
//!   hop's port is worked out; a table's routes are ports already), the source address
//!   shifted one letter or byte per word, the position in the worm and the buffer's read
//!   address, one word ahead of the link;
//! - **receiver**: the arriving worm's source word, byte count and bytes, handed out one
//!   cycle after they arrive.
//!
//! Every output is a register.

use super::route_table::{self, RouteTable, TableError, TableWidths};
use super::router_parts::{
    Buffer, Io, Sizes, buffer, control_in, hand_out, low_byte, nacked, port, shift_in_address,
    shift_letter, slice, still_loading,
};
use crate::bits::bits_for;
use crate::choice::choice;
use crate::fabric::switch::{DEFAULT_DATA_BITS, Flow, MAX_D as MAX_SWITCH_D};
use crate::network::acked::{Bounds, worm_words};
use crate::network::plan::{KautzPlan, Plan, TABLE_ROUTE_CYCLES, TablePlan, index_bytes};
use crate::rtl::const_arith::extend;
use crate::rtl::ir::{Connections, ConstId, Design, Expr, Memory, Module, SignalId, Timing};
use crate::rtl::kautz_route::{self, RouteGenParams, RouteGenPorts, faithful::cycle_bound};
use crate::topology::kautz::{Kautz, KautzError};
use std::collections::BTreeMap;
use std::sync::Arc;
use thiserror::Error;

/// Default top module name.
pub const DEFAULT_TOP: &str = "kautz_router";

/// Default size of the message buffer, in bytes.
pub const DEFAULT_MAX_BYTES: u8 = 16;

/// The widths a link word and the processor's data may have (`--data-bits`): the byte of
/// the network-switch paper (Smit et al. 1991), and the bus widths of FPGA designs.
pub const DATA_BITS_CHOICES: [u32; 4] = [8, 16, 32, 64];

choice! {
    /// A deliberate fault, built in to show that verification catches a broken router.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum RouterFault {
        RouteTakenLate = "route-taken-late":
            "Routes after the first are taken one cycle late: their B cycles are counted from \
            T_i + 1 instead of T_i (T_(i+1) = max(T_i + B + 1, x_i))",
        PaddingForgotten = "padding-forgotten":
            "The worm is never padded to 3(L+1) - 1 words, so a NACK from a far switch can \
            come after its EOD",
        AckTimeoutShort = "ack-timeout-short":
            "Under --flow vct or saf, a source waits one cycle less than the attempt's bound \
            for its ACK",
    }
}

/// Why router parameters are refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RouterError {
    #[error(transparent)]
    Kautz(#[from] KautzError),
    #[error("the message buffer holds 1 to 255 bytes, got --max-bytes {0}")]
    MaxBytes(u64),
    #[error(
        "the router talks to a switch of d+1 ports, and a switch has d = 1 to {MAX_SWITCH_D}, got --d {0}"
    )]
    Degree(u64),
    #[error(transparent)]
    Table(#[from] TableError),
    #[error("--data-bits must be 8, 16, 32 or 64 (the width of a link word), got {0}")]
    DataBits(u64),
}

/// Where a router's routes come from, which also decides how a node is addressed.
#[derive(Debug, Clone)]
pub enum RouteSource {
    /// K(d,k)'s route generator beside the router; a node's address is its word.
    Generator(Kautz),
    /// A route table of every pair's routes (the network model's, from `plan`); a node's
    /// address is its index, in bytes.
    Table {
        plan: Arc<TablePlan>,
        table: Arc<RouteTable>,
    },
}

impl PartialEq for RouteSource {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (RouteSource::Generator(a), RouteSource::Generator(b)) => a == b,
            (RouteSource::Table { table: a, .. }, RouteSource::Table { table: b, .. }) => a == b,
            _ => false,
        }
    }
}

impl Eq for RouteSource {}

/// What to build: the router of a node of the network whose routes come from `source`,
/// with a buffer of `max_bytes` bytes, as the module `top`, with `fault` built in for
/// verification only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RouterParams {
    pub source: RouteSource,
    pub max_bytes: u8,
    /// Bits of a link word and of the processor's data: a message is up to `max_bytes`
    /// words of this width; the control words use their low 8 bits, the rest 0.
    pub data_bits: u32,
    pub top: String,
    pub fault: Option<RouterFault>,
    /// Behind buffered switches: acknowledged delivery (`router_acked.rs`), a source
    /// waiting this many cycles for an attempt's ACK.
    pub ack_timeout: Option<u64>,
}

/// The buffer's size, checked.
fn buffer_bytes(max_bytes: u64) -> Result<u8, RouterError> {
    match max_bytes {
        1..=255 => Ok(max_bytes as u8),
        _ => Err(RouterError::MaxBytes(max_bytes)),
    }
}

impl RouterParams {
    /// The fault-free router of K(d,k) with a buffer of `max_bytes` bytes, under `top`.
    pub fn new(d: u64, k: u64, max_bytes: u64, top: &str) -> Result<Self, RouterError> {
        if !(1..=MAX_SWITCH_D).contains(&d) {
            return Err(RouterError::Degree(d));
        }
        let graph = Kautz::new(d, k)?;
        Ok(RouterParams {
            source: RouteSource::Generator(graph),
            max_bytes: buffer_bytes(max_bytes)?,
            data_bits: DEFAULT_DATA_BITS,
            top: top.to_string(),
            fault: None,
            ack_timeout: None,
        })
    }

    /// The fault-free router of a node of `plan`'s network, holding its route table, with
    /// a buffer of `max_bytes` bytes, under `top`.
    pub fn table(plan: Arc<TablePlan>, max_bytes: u64, top: &str) -> Result<Self, RouterError> {
        let max_bytes = buffer_bytes(max_bytes)?;
        let table = Arc::new(RouteTable::of(&plan)?);
        Ok(RouterParams {
            source: RouteSource::Table { plan, table },
            max_bytes,
            data_bits: DEFAULT_DATA_BITS,
            top: top.to_string(),
            fault: None,
            ack_timeout: None,
        })
    }

    pub fn with_fault(self, fault: Option<RouterFault>) -> Self {
        RouterParams { fault, ..self }
    }

    /// The same router with link words and processor data of `data_bits` bits, one of
    /// [`DATA_BITS_CHOICES`].
    pub fn with_data_bits(self, data_bits: u64) -> Result<Self, RouterError> {
        match DATA_BITS_CHOICES
            .iter()
            .find(|&&b| u64::from(b) == data_bits)
        {
            Some(&data_bits) => Ok(RouterParams { data_bits, ..self }),
            None => Err(RouterError::DataBits(data_bits)),
        }
    }

    /// "16-byte buffer", or "16-word buffer of 32 bits" when the words are wider.
    fn buffer_words(&self) -> String {
        match self.data_bits {
            DEFAULT_DATA_BITS => format!("{}-byte buffer", self.max_bytes),
            bits => format!("{}-word buffer of {bits} bits", self.max_bytes),
        }
    }

    /// `RouterParams::buffer_words` of a network's routers: "16-byte buffers", "16-word
    /// buffers of 32 bits".
    pub fn buffers(&self) -> String {
        match self.data_bits {
            DEFAULT_DATA_BITS => format!("{}-byte buffers", self.max_bytes),
            bits => format!("{}-word buffers of {bits} bits", self.max_bytes),
        }
    }

    /// The router behind switches of flow control `flow`: under vct and saf it
    /// acknowledges every message, a source waiting the bound of an attempt for its ACK
    /// ([`Bounds`]).
    pub fn with_flow(self, flow: Flow) -> Self {
        let ack_timeout =
            (flow != Flow::Nack).then(|| Bounds::of(self.plan().as_ref(), self.max_bytes).attempt);
        RouterParams {
            ack_timeout,
            ..self
        }
    }

    /// The topology the router's node belongs to, as the network model runs it: the same
    /// addresses and routes.
    pub fn plan(&self) -> Arc<dyn Plan> {
        match &self.source {
            RouteSource::Generator(graph) => Arc::new(
                KautzPlan::new(*graph, self.route_cycles())
                    .expect("a network small enough to generate is small enough to model"),
            ),
            RouteSource::Table { plan, .. } => Arc::clone(plan) as Arc<dyn Plan>,
        }
    }

    /// Whether `fault` is one this router has: the acknowledging router's is
    /// [`RouterFault::AckTimeoutShort`], the plain router's the others.
    pub fn has_fault(&self, fault: RouterFault) -> bool {
        (fault == RouterFault::AckTimeoutShort) == self.ack_timeout.is_some()
    }

    /// K(d,k), when the router's routes come from its route generator.
    pub fn graph(&self) -> Option<&Kautz> {
        match &self.source {
            RouteSource::Generator(graph) => Some(graph),
            RouteSource::Table { .. } => None,
        }
    }

    /// The route generator beside the router, on K(d,k).
    pub fn route_gen(&self) -> Option<RouteGenParams> {
        self.graph().map(|&graph| RouteGenParams {
            graph,
            top: format!("{}_route_gen", self.top),
            // The router's cycle model takes the faithful generator's bound.
            arch: kautz_route::Arch::Faithful,
        })
    }

    /// d: the switch's network ports.
    pub fn ports(&self) -> usize {
        match &self.source {
            RouteSource::Generator(graph) => graph.d(),
            RouteSource::Table { plan, .. } => plan.ports(),
        }
    }

    /// W: bits per letter (a Kautz route's hop) or per port (a table route's hop), and of
    /// the attempts: values 0..=d.
    pub fn letter_bits(&self) -> u32 {
        bits_for(self.ports() as u64 + 1)
    }

    /// The units of a node's address (a word's k letters, or an index's bytes) and the
    /// bits of each (W, or 8).
    pub fn address_units(&self) -> (u32, u32) {
        match &self.source {
            RouteSource::Generator(graph) => (graph.k() as u32, self.letter_bits()),
            RouteSource::Table { plan, .. } => (index_bytes(plan.node_count()) as u32, 8),
        }
    }

    /// Bits of a node's address on the ports (`node`, `tx_dst`, `rx_src`).
    pub fn address_bits(&self) -> u32 {
        let (units, bits) = self.address_units();
        units * bits
    }

    /// Node `v`'s address as its ports carry it: the plan's address bytes, first most
    /// significant, each in a unit of [`RouterParams::address_units`].
    pub fn address_word(&self, address: &[u8]) -> u64 {
        let bits = self.address_units().1;
        address
            .iter()
            .fold(0, |word, &unit| word << bits | u64::from(unit))
    }

    /// B: cycles from `init` or `next_route` to taking the route.
    pub fn route_cycles(&self) -> u64 {
        match &self.source {
            RouteSource::Generator(graph) => cycle_bound(graph.d(), graph.k()) as u64,
            RouteSource::Table { .. } => TABLE_ROUTE_CYCLES,
        }
    }

    /// The most hops of a route: k + 2 on K(d,k), the table's longest route.
    pub fn max_hops(&self) -> u64 {
        match &self.source {
            RouteSource::Generator(graph) => graph.k() as u64 + 2,
            RouteSource::Table { table, .. } => table.longest() as u64,
        }
    }

    /// The longest worm, in words: L = the most hops, and `max_bytes` bytes (and the
    /// sequence number under acknowledged delivery).
    pub fn max_worm(&self) -> u64 {
        let (k, l) = (u64::from(self.address_units().0), self.max_hops());
        worm_words(l, k, u64::from(self.max_bytes), self.ack_timeout.is_some())
    }

    /// "router of a node of K(2,3) (16-byte buffer, B = 16)", "router of a node of B(2,3)
    /// (16-byte buffer, route table of 72 routes of at most 5 hops, 13-bit words, B = 2)".
    pub fn describe(&self) -> String {
        let node = match &self.source {
            RouteSource::Generator(graph) => format!(
                "router of a node of K({},{}) ({}, B = {})",
                graph.d(),
                graph.k(),
                self.buffer_words(),
                self.route_cycles()
            ),
            RouteSource::Table { plan, table } => format!(
                "router of a node of {} ({}, route table of {}, B = {})",
                plan.name(),
                self.buffer_words(),
                table.describe(self.letter_bits()),
                self.route_cycles()
            ),
        };
        match self.ack_timeout {
            None => node,
            Some(timeout) => format!("{node}, acknowledging, waiting {timeout} cycles for an ACK"),
        }
    }
}

/// The router's hardware.
pub fn design(params: &RouterParams) -> Design {
    let (mut modules, sizes) = match &params.source {
        RouteSource::Generator(graph) => {
            let gen_params = params.route_gen().expect("a generator on K(d,k)");
            let sizes = vec![("d", graph.d()), ("k", graph.k())];
            (kautz_route::design(&gen_params).modules, sizes)
        }
        RouteSource::Table { plan, table } => {
            let widths = TableWidths {
                w: params.letter_bits(),
                address: params.address_bits(),
            };
            let name = format!("{}_route_table", params.top);
            let sizes = vec![
                ("d", plan.ports()),
                ("nodes", plan.node_count()),
                ("table_routes", table.entries()),
                ("table_word_bits", table.word_bits(widths.w) as usize),
            ];
            (vec![route_table::module(table, widths, &name)], sizes)
        }
    };
    let route_source = modules.last().expect("the route source's top");
    let top = match params.ack_timeout {
        None => router_module(params, route_source),
        Some(timeout) => {
            let s = Sizes::of(params);
            let (m, io) = ports(params, &s);
            let timeout = match params.fault {
                Some(RouterFault::AckTimeoutShort) => timeout - 1,
                _ => timeout,
            };
            super::router_acked::module(m, (&s, &io), route_source, timeout)
        }
    };
    modules.push(top);
    let mut design_params: BTreeMap<String, u64> = sizes
        .into_iter()
        .map(|(name, value)| (name.to_string(), value as u64))
        .collect();
    design_params.insert("max_bytes".to_string(), u64::from(params.max_bytes));
    // Named only when wider than the default byte, so the byte-wide router's headers and
    // reports stay as they were.
    if params.data_bits != DEFAULT_DATA_BITS {
        design_params.insert("data_bits".to_string(), u64::from(params.data_bits));
    }
    Design {
        params: design_params,
        summary: params.describe(),
        modules,
        timing: Timing::Synchronous,
    }
}

/// The sender's states, in encoding order.
const PHASES: [(&str, &str); 5] = [
    ("P_IDLE", "no message: tx_ready"),
    (
        "P_ROUTE",
        "waiting for the timer to take the next route (T_i)",
    ),
    (
        "P_READY",
        "route 1 taken, bytes still coming: the head waits for t_last",
    ),
    ("P_SEND", "an attempt's worm is on the link"),
    (
        "P_DROP",
        "refused before its last byte: bytes taken and dropped",
    ),
];

/// The receiver's states, in encoding order.
const RX_STATES: [(&str, &str); 5] = [
    ("R_IDLE", "between worms: a control word is a head"),
    ("R_SRC", "taking the source word's letters"),
    ("R_LEN", "the next word is the byte count n"),
    ("R_DATA", "taking the n data bytes"),
    (
        "R_SKIP",
        "padding up to the EOD, after the last byte or an error",
    ),
];

impl Sizes {
    pub(super) fn of(params: &RouterParams) -> Self {
        let (k, uw) = params.address_units();
        let w = params.letter_bits();
        let lw = match &params.source {
            RouteSource::Generator(_) => params.route_gen().expect("K(d,k)").length_bits(),
            RouteSource::Table { table, .. } => table.length_bits(),
        };
        let depth = params.max_bytes.max(2) as u32;
        let b = params.route_cycles();
        Sizes {
            d: params.ports() as u64,
            dw: params.data_bits,
            k,
            w,
            lw,
            uw,
            kw: k * uw,
            rw: params.max_hops() as u32 * w,
            hops_are_ports: params.graph().is_none(),
            max: u64::from(params.max_bytes),
            depth,
            aw: Memory::address_width(depth),
            b,
            tw: bits_for(b + 1),
            // At least 8 bits: n (8 bits) is added to positions.
            pw: bits_for(params.max_worm() + 1).max(8),
        }
    }
}

/// The loader's byte handshake and the sender's state.
#[derive(Clone, Copy)]
struct Intake {
    /// The sender's states: idle, route, ready, send, drop.
    phases: [ConstId; 5],
    phase: SignalId,
    take: SignalId,
    first: SignalId,
    more: SignalId,
    still_loading: SignalId,
}

impl Intake {
    /// The sender is in state `p`.
    fn is(&self, p: ConstId) -> Expr {
        Expr::from(self.phase).eq(p.into())
    }
}

/// The route generator's outputs, and `take_route`, its `next_route`.
#[derive(Clone, Copy)]
struct Generator {
    valid: SignalId,
    route: SignalId,
    len: SignalId,
    done: SignalId,
    error: SignalId,
    take_route: SignalId,
}

/// The sequencer's timer and the decisions it makes.
#[derive(Clone, Copy)]
struct Schedule {
    tick: SignalId,
    tick_zero: SignalId,
    attempt: SignalId,
    due: SignalId,
    bad: SignalId,
    start_send: SignalId,
}

/// The worm's position and the outcomes it decides.
#[derive(Clone, Copy)]
struct Verdicts {
    hop_count: SignalId,
    at_eod: SignalId,
    delivered: SignalId,
    failed: SignalId,
    refused: SignalId,
    verdict: SignalId,
}

/// The worm's registers and what the next word is.
#[derive(Clone, Copy)]
struct Worm {
    hops: SignalId,
    /// The letter the next hop leaves from (K(d,k) only: a table's hops are ports).
    prev: Option<SignalId>,
    srcw: SignalId,
    route_in: SignalId,
    /// The next word's index in the worm less L: its flags' step.
    rel: SignalId,
    is_hop: SignalId,
    is_zero: SignalId,
    is_src: SignalId,
    is_len: SignalId,
    is_data: SignalId,
    is_eod: SignalId,
}

/// The receiver's state and what the arriving word is.
#[derive(Clone, Copy)]
struct Receiver {
    states: [ConstId; 5],
    rx_state: SignalId,
    rx_count: SignalId,
    rx_acc: SignalId,
    rx_n: SignalId,
    head_in: SignalId,
    early: SignalId,
    src_in: SignalId,
    len_in: SignalId,
    zero_len: SignalId,
    data_in: SignalId,
    rx_next: SignalId,
    last_in: SignalId,
}

impl Receiver {
    /// The receiver is in state `s`.
    fn is(&self, s: ConstId) -> Expr {
        Expr::from(self.rx_state).eq(s.into())
    }
}

/// The sender's blocks, which the sequencer's registers and the worm read.
struct Sender {
    intake: Intake,
    buffer: Buffer,
    generator: Generator,
    schedule: Schedule,
    verdicts: Verdicts,
}

/// The router's top: its ports, then its blocks, each declaring its signals and statements
/// in the order the generated HDL lists them.
fn router_module(params: &RouterParams, route_gen: &Module) -> Module {
    let s = Sizes::of(params);
    let (mut m, io) = ports(params, &s);
    let intake = intake(&mut m, &io);
    let buffer = buffer(&mut m, &s, &io, (intake.first, intake.more));
    let generator = route_generator(&mut m, &s, &io, &intake, route_gen);
    let schedule = schedule(&mut m, &s, &io, &intake, &buffer, &generator);
    let verdicts = verdicts(&mut m, &s, &io, &intake, &buffer, &generator, &schedule);
    let sender = Sender {
        intake,
        buffer,
        generator,
        schedule,
        verdicts,
    };
    next_phase(&mut m, &io, &sender);
    counters(&mut m, params, &s, &io, &sender);
    let worm = worm(&mut m, &s, &sender);
    let (more_words, bounds) = worm_end(&mut m, params, &s, &io, &sender);
    worm_position(&mut m, &s, &sender, &worm, more_words, bounds);
    let word = worm_word(&mut m, &s, &io, &sender, &worm, more_words);
    worm_shift(&mut m, &s, &io, &sender, &worm, more_words, word);
    worm_source_and_bytes(&mut m, &s, &io, &sender, &worm, more_words);
    let receiver = receiver(&mut m, &s, &io);
    receiver_state(&mut m, &s, &io, &receiver);
    receiver_outputs(&mut m, &s, &io, &receiver);
    m
}

/// The module and its ports.
pub(super) fn ports(params: &RouterParams, s: &Sizes) -> (Module, Io) {
    let Sizes { w, kw, dw, .. } = *s;
    let docs = AddressDocs::of(s);
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!(
                "Router of the network-switch paper (Smit et al. 1991): {}.",
                params.describe()
            ),
            "Takes a message from the processor into its buffer, sends it as a worm over the",
            docs.routes,
            "outcome, and hands out the messages that arrive (docs/network.md).",
        ],
    );
    let clocking = m.clocked();
    let tx_valid = m.input("tx_valid", 1, "the processor offers a byte");
    let tx_ready = m.output(
        "tx_ready",
        1,
        "the router takes a byte (idle, or between the first and the last byte)",
    );
    let tx_data = m.input("tx_data", dw, "the data word offered");
    let tx_last = m.input("tx_last", 1, "the byte offered is the message's last");
    let tx_dst = m.input("tx_dst", kw, docs.tx_dst);
    let res_valid = m.output("res_valid", 1, "one cycle: the outcome of the last message");
    let res_status = m.output(
        "res_status",
        2,
        "0 delivered, 1 failed, 2 refused (0 without res_valid)",
    );
    let res_attempts = m.output(
        "res_attempts",
        w,
        "attempts made, 0 for a refused message (0 without res_valid)",
    );
    let rx_valid = m.output("rx_valid", 1, "a byte of an arriving message");
    let rx_data = m.output("rx_data", dw, "the data word (0 without rx_valid)");
    let rx_first = m.output("rx_first", 1, "the message's first byte");
    let rx_last = m.output("rx_last", 1, "the message's last byte: it has arrived");
    let rx_src = m.output("rx_src", kw, docs.rx_src);
    let rx_len = m.output(
        "rx_len",
        8,
        "its byte count, with every byte (0 without rx_valid)",
    );
    let rx_error = m.output(
        "rx_error",
        1,
        "one cycle: a worm ended before its bytes, or had none",
    );
    let node = m.input("node", kw, docs.node);
    let net_valid = m.output("net_valid", 1, "to the switch's input 0: a word");
    let net_ctl = m.output(
        "net_ctl",
        1,
        "to the switch's input 0: type bit (head, EOD)",
    );
    let net_data = m.output("net_data", dw, "to the switch's input 0: data");
    let net_nack = m.input("net_nack", 1, "the switch's in0_nack: the worm was refused");
    let arr_valid = m.input("arr_valid", 1, "from the switch's output 0: a word");
    let arr_ctl = m.input("arr_ctl", 1, "from the switch's output 0: type bit");
    let arr_data = m.input("arr_data", dw, "from the switch's output 0: data");
    let io = Io {
        clocking,
        tx_valid,
        tx_ready,
        tx_data,
        tx_last,
        tx_dst,
        res_valid,
        res_status,
        res_attempts,
        rx_valid,
        rx_data,
        rx_first,
        rx_last,
        rx_src,
        rx_len,
        rx_error,
        node,
        net_valid,
        net_ctl,
        net_data,
        net_nack,
        arr_valid,
        arr_ctl,
        arr_data,
    };
    (m, io)
}

/// What the ports that carry a node's address, and the routes, are called in the HDL.
struct AddressDocs {
    routes: &'static str,
    tx_dst: &'static str,
    rx_src: &'static str,
    node: &'static str,
}

impl AddressDocs {
    fn of(s: &Sizes) -> Self {
        match s.hops_are_ports {
            false => AddressDocs {
                routes: "node-disjoint routes of the route generator, one attempt per NACK, reports the",
                tx_dst: "destination word, with the first byte, b1 in the most significant letter",
                rx_src: "its source word, with every byte (0 without rx_valid)",
                node: "this node's word, a1 in the most significant letter (a constant in a network)",
            },
            true => AddressDocs {
                routes: "routes of its route table, one attempt per NACK, reports the",
                tx_dst: "destination node's index, with the first byte",
                rx_src: "its source node's index, with every byte (0 without rx_valid)",
                node: "this node's index (a constant in a network)",
            },
        }
    }
}

/// Loader: the byte handshake with the processor, and whether bytes are still coming.
fn intake(m: &mut Module, io: &Io) -> Intake {
    let Io {
        tx_valid,
        tx_ready,
        tx_last,
        ..
    } = *io;
    let phases = m.states(3, &PHASES);
    let [p_idle, p_route, p_ready, p_send, p_drop] = phases[..] else {
        unreachable!("five phases")
    };
    let phase = m.internal("phase", 3, "the sender's state");
    let is = |p: ConstId| Expr::from(phase).eq(p.into());
    let take = m.internal("take", 1, "a byte is taken this cycle");
    m.assign(
        take,
        Expr::from(tx_valid).and(tx_ready.into()),
        "Valid and ready.",
    );
    let first = m.internal("first", 1, "the message's first byte is taken (cycle a)");
    m.assign(
        first,
        Expr::from(take).and(is(p_idle)),
        "Taken while idle: the first byte.",
    );
    let more = m.internal("more", 1, "a later byte is taken");
    m.assign(
        more,
        Expr::from(take).and(!is(p_idle)),
        "Taken while a message is held: one of its later bytes.",
    );
    let loading = m.internal("loading", 1, "bytes are still coming (a < t <= t_last)");
    let still_loading = still_loading(m, (first, take, tx_last), loading);
    Intake {
        phases: [p_idle, p_route, p_ready, p_send, p_drop],
        phase,
        take,
        first,
        more,
        still_loading,
    }
}

/// The route generator, started by the first byte and stepped by each route taken.
fn route_generator(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    intake: &Intake,
    route_gen: &Module,
) -> Generator {
    let Sizes { lw, rw, .. } = *s;
    let Io {
        clocking,
        node,
        tx_dst,
        ..
    } = *io;
    let first = intake.first;
    let what = match s.hops_are_ports {
        false => "route generator",
        true => "route table",
    };
    let gen_valid = m.internal("gen_valid", 1, &format!("{what}: a route is shown"));
    let gen_route = m.internal("gen_route", rw, &format!("{what}: hops z1..zL, z1 first"));
    let gen_len = m.internal("gen_len", lw, &format!("{what}: L"));
    let gen_done = m.internal("gen_done", 1, &format!("{what}: no further route"));
    let gen_error = m.internal(
        "gen_error",
        1,
        &format!("{what}: the destination is not a node, or is this node"),
    );
    let take_route = m.internal(
        "take_route",
        1,
        "route i is taken this cycle (T_i): copied, next_route asserted",
    );
    let p = RouteGenPorts::of(route_gen);
    let connections = Connections::of(route_gen)
        .bind(&p.clk, clocking.clock)
        .bind(&p.rst, clocking.reset)
        .bind(&p.init, first)
        .bind(&p.next_route, take_route)
        .bind(&p.src, node)
        .bind(&p.dst, tx_dst)
        .bind(&p.route_valid, gen_valid)
        .bind(&p.route, gen_route)
        .bind(&p.route_len, gen_len)
        .bind(&p.done, gen_done)
        .bind(&p.error, gen_error);
    match s.hops_are_ports {
        false => m.instance(
            "u_route_gen",
            connections,
            "Route generator of the route-generator paper (Smit et al. 1991): init with the first byte, next_route when a route is taken.",
        ),
        true => m.instance(
            "u_route_table",
            connections,
            "The route table: init with the first byte, next_route when a route is taken.",
        ),
    }
    Generator {
        valid: gen_valid,
        route: gen_route,
        len: gen_len,
        done: gen_done,
        error: gen_error,
        take_route,
    }
}

/// Sequencer: the timer of B cycles, when a route is taken (T_i) and when a head is sent.
fn schedule(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    intake: &Intake,
    buffer: &Buffer,
    generator: &Generator,
) -> Schedule {
    let Sizes { d, w, tw, .. } = *s;
    let Intake {
        take,
        still_loading,
        phases: [_, p_route, p_ready, p_send, _],
        ..
    } = *intake;
    let is = |p: ConstId| intake.is(p);
    let Generator {
        valid: gen_valid,
        done: gen_done,
        error: gen_error,
        take_route,
        ..
    } = *generator;
    let over = buffer.over;
    let tx_last = io.tx_last;
    let tick = m.internal(
        "tick",
        tw,
        "cycles left until the next route may be taken (0: it may)",
    );
    let tick_zero = m.internal(
        "tick_zero",
        1,
        "tick is 0 (registered with tick, so that no comparison precedes a route's taking)",
    );
    let attempt = m.internal("attempt", w, "routes taken for the message, i");
    let nack = nacked(io);
    let sending = is(p_send);
    let need_route = m.internal("need_route", 1, "a route is wanted this cycle");
    match s.hops_are_ports {
        false => m.assign(
            need_route,
            is(p_route).or(sending
                .clone()
                .and(nack.clone())
                .and(Expr::from(attempt).ne(Expr::konst(w, d)))),
            "Waiting for one, or a NACK of attempt i < d.",
        ),
        true => m.assign(
            need_route,
            is(p_route).or(sending.clone().and(nack.clone()).and(!Expr::from(gen_done))),
            "Waiting for one, or a NACK while the table has a further route.",
        ),
    }
    let due = m.internal("due", 1, "T_i: a route is wanted and the timer has run out");
    m.assign(
        due,
        Expr::from(need_route).and(tick_zero.into()),
        "T_(i+1) = max(T_i + B, x_i).",
    );
    let bad = m.internal(
        "bad",
        1,
        "the route generator has no route to give: refused",
    );
    m.assign(
        bad,
        Expr::or_all([gen_error.into(), !Expr::from(gen_valid), gen_done.into()]),
        "An invalid destination (error), or a broken contract: no valid route at T_i.",
    );
    m.assign(
        take_route,
        Expr::from(due).and(!Expr::from(bad)),
        "A route is taken when due and there is one.",
    );
    let start_send = m.internal(
        "start_send",
        1,
        "the head goes on the link next cycle (cycle S_i - 1 = max(T_i, t_last))",
    );
    m.assign(
        start_send,
        Expr::or_all([
            Expr::from(take_route).and(!Expr::from(still_loading)),
            is(p_ready).and(tx_last.into()).and(take.into()),
        ])
        .and(!Expr::from(over)),
        "A route taken after the last byte, or the last byte after the route.",
    );
    Schedule {
        tick,
        tick_zero,
        attempt,
        due,
        bad,
        start_send,
    }
}

/// Sequencer: the worm's position and the outcome (V): delivered, failed or refused.
fn verdicts(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    intake: &Intake,
    buffer: &Buffer,
    generator: &Generator,
    schedule: &Schedule,
) -> Verdicts {
    let Sizes { d, w, lw, .. } = *s;
    let Intake {
        take,
        still_loading,
        phases: [_, _, p_ready, p_send, p_drop],
        ..
    } = *intake;
    let is = |p: ConstId| intake.is(p);
    let Schedule {
        attempt, due, bad, ..
    } = *schedule;
    let take_route = generator.take_route;
    let over = buffer.over;
    let tx_last = io.tx_last;
    let nack = nacked(io);
    let sending = is(p_send);
    let hop_count = m.internal("hop_count", lw, "L of the current route");
    let at_eod = m.internal(
        "at_eod",
        1,
        "the word on the link is the EOD (registered: the word chosen last was)",
    );
    let delivered = m.internal("delivered", 1, "verdict: delivered (V = E_i)");
    m.assign(
        delivered,
        sending.clone().and(!nack.clone()).and(at_eod.into()),
        "The EOD sent without a NACK.",
    );
    let failed = m.internal("failed", 1, "verdict: failed (V = x_d)");
    match s.hops_are_ports {
        false => m.assign(
            failed,
            sending
                .clone()
                .and(nack.clone())
                .and(Expr::from(attempt).eq(Expr::konst(w, d))),
            "The NACK of attempt d.",
        ),
        true => m.assign(
            failed,
            sending.clone().and(nack.clone()).and(generator.done.into()),
            "The NACK of the pair's last route.",
        ),
    }
    let refused = m.internal("refused", 1, "verdict: refused (V = max(T_1, t_last))");
    let last_taken = Expr::from(take).and(tx_last.into());
    m.assign(
        refused,
        Expr::or_all([
            Expr::from(due)
                .and(bad.into())
                .and(!Expr::from(still_loading)),
            Expr::from(take_route)
                .and(!Expr::from(still_loading))
                .and(over.into()),
            is(p_drop).and(last_taken.clone()),
            is(p_ready).and(last_taken).and(over.into()),
        ]),
        "No route at T_1 (or a broken contract later), or too many bytes, once the last byte is in.",
    );
    let verdict = m.internal("verdict", 1, "V: the message ends this cycle");
    m.assign(
        verdict,
        Expr::or_all([delivered.into(), failed.into(), refused.into()]),
        "Any outcome.",
    );
    Verdicts {
        hop_count,
        at_eod,
        delivered,
        failed,
        refused,
        verdict,
    }
}

/// Sequencer: the sender's next state, and `tx_ready` from it.
fn next_phase(m: &mut Module, io: &Io, sender: &Sender) {
    let intake = &sender.intake;
    let Intake {
        phase,
        first,
        still_loading,
        phases: [p_idle, p_route, p_ready, p_send, p_drop],
        ..
    } = *intake;
    let Schedule {
        due,
        bad,
        start_send,
        ..
    } = sender.schedule;
    let verdict = sender.verdicts.verdict;
    let take_route = sender.generator.take_route;
    let tx_ready = io.tx_ready;
    let nack = nacked(io);
    let sending = intake.is(p_send);
    let phase_next = m.internal("phase_next", 3, "the sender's state next cycle");
    m.assign(
        phase_next,
        Expr::mux(
            verdict.into(),
            p_idle.into(),
            Expr::mux(
                start_send.into(),
                p_send.into(),
                Expr::mux(
                    first.into(),
                    p_route.into(),
                    Expr::mux(
                        Expr::from(due).and(bad.into()),
                        p_drop.into(),
                        Expr::mux(
                            take_route.into(),
                            p_ready.into(),
                            Expr::mux(
                                sending.clone().and(nack.clone()),
                                p_route.into(),
                                phase.into(),
                            ),
                        ),
                    ),
                ),
            ),
        ),
        "An outcome ends the message; a head starts an attempt; a route taken before the last byte waits for it; no route before the last byte drops the rest; a NACK waits for the next route.",
    );
    m.register(phase, 0, phase_next.into(), "The sender's state.");
    m.register(
        tx_ready,
        1,
        Expr::from(phase_next)
            .eq(p_idle.into())
            .or(still_loading.into()),
        "Ready while idle and while the message's bytes come.",
    );
}

/// Sequencer: the timer, the attempt count and the outcome's registers.
fn counters(m: &mut Module, params: &RouterParams, s: &Sizes, io: &Io, sender: &Sender) {
    let Sizes { w, tw, b, .. } = *s;
    let Io {
        res_valid,
        res_status,
        res_attempts,
        ..
    } = *io;
    let first = sender.intake.first;
    let take_route = sender.generator.take_route;
    let Schedule {
        tick,
        tick_zero,
        attempt,
        ..
    } = sender.schedule;
    let Verdicts {
        delivered,
        failed,
        refused,
        verdict,
        ..
    } = sender.verdicts;
    let reload = match params.fault {
        Some(RouterFault::RouteTakenLate) => Expr::konst(tw, b),
        _ => Expr::konst(tw, b - 1),
    };
    m.register(
        tick,
        0,
        Expr::mux(
            first.into(),
            Expr::konst(tw, b - 1),
            Expr::mux(
                take_route.into(),
                reload,
                Expr::mux(
                    tick_zero.into(),
                    tick.into(),
                    Expr::from(tick) - Expr::konst(tw, 1),
                ),
            ),
        ),
        "B cycles from init (the first byte) or next_route (a route taken) to the next route, then 0 until it is wanted.",
    );
    // Both reload values are at least 1 (B >= 2), so tick is 0 next cycle only when it
    // counts down from 1 or stays at 0.
    m.register(
        tick_zero,
        1,
        Expr::and_all([
            !Expr::from(first),
            !Expr::from(take_route),
            Expr::from(tick_zero).or(Expr::from(tick).eq(Expr::konst(tw, 1))),
        ]),
        "tick = 0 next cycle.",
    );
    m.register(
        attempt,
        0,
        Expr::mux(
            first.into(),
            Expr::zero(w),
            Expr::mux(
                take_route.into(),
                Expr::from(attempt) + Expr::konst(w, 1),
                attempt.into(),
            ),
        ),
        "Counts the routes taken.",
    );
    m.register(
        res_valid,
        0,
        verdict.into(),
        "The outcome, the cycle after V.",
    );
    m.register(
        res_status,
        0,
        Expr::mux(
            failed.into(),
            Expr::konst(2, 1),
            Expr::mux(refused.into(), Expr::konst(2, 2), Expr::zero(2)),
        ),
        "1 failed, 2 refused, else 0 (delivered, or no outcome).",
    );
    m.register(
        res_attempts,
        0,
        Expr::mux(
            Expr::from(delivered).or(failed.into()),
            attempt.into(),
            Expr::zero(w),
        ),
        "The attempts made by a delivered or failed message.",
    );
}

/// Worm: the route and source registers, and the flags of which part of the worm the next
/// word is (registered by [`worm_position`]).
fn worm(m: &mut Module, s: &Sizes, sender: &Sender) -> Worm {
    let Sizes { w, kw, rw, pw, .. } = *s;
    let Generator {
        route: gen_route,
        take_route,
        ..
    } = sender.generator;
    let hops = m.internal(
        "hops",
        rw,
        "the route, shifted one hop per hop word sent: the next hop first",
    );
    let prev = (!s.hops_are_ports).then(|| {
        m.internal(
            "prev",
            w,
            "the last letter of the node the next hop leaves from",
        )
    });
    let srcw = m.internal(
        "srcw",
        kw,
        "the source word, shifted one letter per source word sent",
    );
    let route_in = m.internal(
        "route_in",
        rw,
        "the route of the head sent next: the generator's when taken now, else the copy",
    );
    m.assign(
        route_in,
        Expr::mux(take_route.into(), gen_route.into(), hops.into()),
        "At T_i the generator's route, in cycle t_last the one taken at T_1.",
    );
    Worm {
        hops,
        prev,
        srcw,
        route_in,
        rel: m.internal(
            "rel",
            pw + 1,
            "the next word's index less L (two's complement): where in the worm it is",
        ),
        is_hop: m.internal("is_hop", 1, "the next word is a route byte (1..L-1)"),
        is_zero: m.internal("is_zero", 1, "the next word is the destination's 0 (L)"),
        is_src: m.internal("is_src", 1, "the next word is a source letter (L+1..L+k)"),
        is_len: m.internal("is_len", 1, "the next word is n (L+k+1)"),
        is_data: m.internal(
            "is_data",
            1,
            "the next word is a data byte (L+k+2..L+k+n+1)",
        ),
        is_eod: m.internal("is_eod", 1, "the next word is the EOD"),
    }
}

/// Worm: the bounds of the data and of the EOD against [`Worm::rel`] (the EOD padded so
/// that the worm hears every NACK), and whether a word follows the one on the link.
///
/// The bounds are registered from `count` and `hop_count`, so they lag them by a cycle: in
/// the head's cycle S they may still be the last message's or route's, but then `rel` is
/// at most 0 and no flag depends on them (the data start at rel k+2 >= 3 and the EOD at
/// rel >= k+3); from S+1 on, n and L are those of the attempt.
fn worm_end(
    m: &mut Module,
    params: &RouterParams,
    s: &Sizes,
    io: &Io,
    sender: &Sender,
) -> (SignalId, WormBounds) {
    let Sizes { k, lw, pw, .. } = *s;
    let Verdicts {
        hop_count, at_eod, ..
    } = sender.verdicts;
    let lx = extend(hop_count.into(), lw, pw);
    let nx = extend(sender.buffer.count.into(), 8, pw);
    let nack = nacked(io);
    let intake = &sender.intake;
    let sending = intake.is(intake.phases[3]);
    let data_end = m.internal(
        "data_end",
        pw,
        "n + k + 1: the next word is a data byte up to rel n+k+1",
    );
    m.register(
        data_end,
        0,
        nx.clone() + Expr::konst(pw, u64::from(k) + 1),
        "Rel of the word after the last data byte, less one (compared with rel before its step).",
    );
    let natural = nx + Expr::konst(pw, u64::from(k) + 2);
    let eod = match params.fault {
        Some(RouterFault::PaddingForgotten) => natural,
        _ => {
            let padded = m.internal(
                "padded",
                pw,
                "2L: the EOD's rel less one in the shortest worm that hears every NACK",
            );
            m.assign(padded, lx.clone() + lx, "len >= 3(L+1) - 1.");
            let unpadded = m.internal(
                "unpadded",
                pw,
                "k+n+2: the EOD's rel less one without padding",
            );
            m.assign(unpadded, natural, "len >= L+k+n+4.");
            Expr::mux(
                Expr::from(unpadded).lt(padded.into()),
                padded.into(),
                unpadded.into(),
            )
        }
    };
    let eod_rel = m.internal(
        "eod_rel",
        pw,
        "the EOD's rel less one: max(L+k+n+4, 3(L+1)-1) - 1 - L - 1",
    );
    m.register(
        eod_rel,
        0,
        eod,
        "The next word is the EOD when rel steps from this value.",
    );
    let more_words = m.internal(
        "more_words",
        1,
        "the attempt goes on: a word follows the one on the link",
    );
    m.assign(
        more_words,
        sending.clone().and(!nack.clone()).and(!Expr::from(at_eod)),
        "Sending, no NACK, not at the EOD.",
    );
    (more_words, WormBounds { data_end, eod_rel })
}

/// The bounds [`worm_position`] compares `rel` with.
#[derive(Clone, Copy)]
struct WormBounds {
    data_end: SignalId,
    eod_rel: SignalId,
}

/// Worm: `rel` (the next word's index less L) and the flags of the next word's part,
/// registered one step ahead: with the head rel is 1 - L (word 1); with every word sent
/// it steps by one and the flags are those of rel + 1, found from rel against constants
/// and the registered bounds, so that no comparison lies between `count` and the link or
/// the buffer's read address.
fn worm_position(
    m: &mut Module,
    s: &Sizes,
    sender: &Sender,
    worm: &Worm,
    more_words: SignalId,
    bounds: WormBounds,
) {
    let Sizes { k, lw, pw, .. } = *s;
    let qw = pw + 1;
    let Generator {
        len: gen_len,
        take_route,
        ..
    } = sender.generator;
    let Verdicts {
        hop_count, at_eod, ..
    } = sender.verdicts;
    let start_send = sender.schedule.start_send;
    let rel = worm.rel;
    let q = || Expr::from(rel);
    let ones = Expr::konst(qw, u64::MAX >> (64 - qw));
    let k = u64::from(k);
    let from_l = |len: SignalId| Expr::konst(qw, 1) - extend(len.into(), lw, qw);
    let one_hop = |len: SignalId| Expr::from(len).eq(Expr::konst(lw, 1));
    // The route the head is sent on: the generator's when it is taken in this cycle.
    let single = Expr::mux(take_route.into(), one_hop(gen_len), one_hop(hop_count));
    let step = |flag: SignalId, head: Expr, then: Expr| {
        Expr::mux(
            start_send.into(),
            head,
            Expr::mux(more_words.into(), then, flag.into()),
        )
    };
    m.register(
        rel,
        0,
        step(
            rel,
            Expr::mux(take_route.into(), from_l(gen_len), from_l(hop_count)),
            q() + Expr::konst(qw, 1),
        ),
        "1 - L with the head (word 1), one up per word.",
    );
    let flags: [(SignalId, Expr, Expr, &str); 6] = [
        (
            worm.is_hop,
            !single.clone(),
            slice(rel, qw - 1, 1).and(q().ne(ones.clone())),
            "Rel + 1 < 0: words 1 .. L-1.",
        ),
        (worm.is_zero, single, q().eq(ones), "Rel + 1 = 0: word L."),
        (
            worm.is_src,
            Expr::bit(false),
            q().lt(Expr::konst(qw, k)),
            "Rel + 1 in 1..k: words L+1 .. L+k.",
        ),
        (
            worm.is_len,
            Expr::bit(false),
            q().eq(Expr::konst(qw, k)),
            "Rel + 1 = k+1: word L+k+1.",
        ),
        (
            worm.is_data,
            Expr::bit(false),
            (!q().lt(Expr::konst(qw, k + 1))).and(q().lt(extend(bounds.data_end.into(), pw, qw))),
            "Rel + 1 in k+2 .. k+n+1: words L+k+2 .. L+k+n+1.",
        ),
        (
            worm.is_eod,
            Expr::bit(false),
            q().eq(extend(bounds.eod_rel.into(), pw, qw)),
            "Rel + 1 at the EOD's.",
        ),
    ];
    for (flag, head, then, doc) in flags {
        m.register(flag, 0, step(flag, head, then), doc);
    }
    m.register(
        at_eod,
        0,
        step(at_eod, Expr::bit(false), worm.is_eod.into()),
        "The word chosen last was the EOD.",
    );
}

/// Worm: the next word's data, and the link's valid and type bits.
fn worm_word(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    sender: &Sender,
    worm: &Worm,
    more_words: SignalId,
) -> SignalId {
    let Sizes {
        w, uw, kw, rw, dw, ..
    } = *s;
    let Io {
        net_valid, net_ctl, ..
    } = *io;
    let Buffer {
        count, read_data, ..
    } = sender.buffer;
    let Worm {
        hops,
        prev,
        srcw,
        is_hop,
        is_zero,
        is_src,
        is_len,
        is_data,
        is_eod,
        ..
    } = *worm;
    let start_send = sender.schedule.start_send;
    let port = |a: Expr, last: Option<Expr>| port(a, last, w, dw);
    let word = m.internal("word", dw, "the data of the next word");
    m.assign(
        word,
        Expr::mux(
            is_hop.into(),
            port(slice(hops, rw - w, w), prev.map(Expr::from)),
            Expr::mux(
                is_zero.into(),
                Expr::zero(dw),
                Expr::mux(
                    is_src.into(),
                    extend(slice(srcw, kw - uw, uw), uw, dw),
                    Expr::mux(
                        is_len.into(),
                        extend(count.into(), 8, dw),
                        Expr::mux(is_data.into(), read_data.into(), Expr::zero(dw)),
                    ),
                ),
            ),
        ),
        "Route bytes (the port of the next hop at the node reached), 0, the source word, n, the bytes, padding and the EOD's 0.",
    );
    m.register(
        net_valid,
        0,
        Expr::from(start_send).or(more_words.into()),
        "A head, then the worm's words until its EOD or a NACK.",
    );
    m.register(
        net_ctl,
        0,
        Expr::from(start_send).or(Expr::from(more_words).and(is_eod.into())),
        "The head and the EOD are control words.",
    );
    word
}

/// Worm: the head's data, then the route's hops and L, one step per word.
fn worm_shift(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    sender: &Sender,
    worm: &Worm,
    more_words: SignalId,
    word: SignalId,
) {
    let Sizes { w, rw, dw, .. } = *s;
    let Io { net_data, node, .. } = *io;
    let Generator {
        route: gen_route,
        len: gen_len,
        take_route,
        ..
    } = sender.generator;
    let hop_count = sender.verdicts.hop_count;
    let Worm {
        hops,
        prev,
        route_in,
        is_hop,
        ..
    } = *worm;
    let start_send = sender.schedule.start_send;
    let node_last = (!s.hops_are_ports).then(|| slice(node, 0, w));
    let first_hop = slice(route_in, rw - w, w);
    let hop_word = Expr::from(more_words).and(is_hop.into());
    let port = |a: Expr, last: Option<Expr>| port(a, last, w, dw);
    m.register(
        net_data,
        0,
        Expr::mux(
            start_send.into(),
            port(first_hop.clone(), node_last),
            Expr::mux(more_words.into(), word.into(), Expr::zero(dw)),
        ),
        "The head: the port of z1 here; then the worm's words; 0 when idle.",
    );
    m.register(
        hops,
        0,
        Expr::mux(
            start_send.into(),
            shift_letter(route_in, rw, w),
            Expr::mux(
                take_route.into(),
                gen_route.into(),
                Expr::mux(hop_word.clone(), shift_letter(hops, rw, w), hops.into()),
            ),
        ),
        "The route copied at T_i; past z1 with the head, one hop further per route byte.",
    );
    if let Some(prev) = prev {
        m.register(
            prev,
            0,
            Expr::mux(
                start_send.into(),
                first_hop,
                Expr::mux(hop_word, slice(hops, rw - w, w), prev.into()),
            ),
            "z_i after route byte i-1 (z1 with the head).",
        );
    }
    m.register(
        hop_count,
        0,
        Expr::mux(take_route.into(), gen_len.into(), hop_count.into()),
        "L of the route taken.",
    );
}

/// Worm: the source word shifted out letter by letter, and the buffer's read address one
/// data byte ahead of the link.
fn worm_source_and_bytes(
    m: &mut Module,
    s: &Sizes,
    io: &Io,
    sender: &Sender,
    worm: &Worm,
    more_words: SignalId,
) {
    let Sizes { uw, kw, aw, .. } = *s;
    let node = io.node;
    let read_addr = sender.buffer.read_addr;
    let Worm {
        srcw,
        is_src,
        is_data,
        ..
    } = *worm;
    let start_send = sender.schedule.start_send;
    // The flags are exclusive: one part of the worm at a time.
    let src_word = Expr::from(more_words).and(is_src.into());
    m.register(
        srcw,
        0,
        Expr::mux(
            start_send.into(),
            node.into(),
            Expr::mux(src_word, shift_letter(srcw, kw, uw), srcw.into()),
        ),
        "This node's word with the head, one letter further per source word.",
    );
    let byte_index = m.internal(
        "byte_index",
        aw,
        "the index of the next data byte to be sent",
    );
    let data_word = m.internal("data_word", 1, "a data byte is sent next cycle");
    m.assign(
        data_word,
        Expr::from(more_words).and(is_data.into()),
        "The next word is a data byte.",
    );
    m.register(
        byte_index,
        0,
        Expr::mux(
            start_send.into(),
            Expr::zero(aw),
            Expr::mux(
                data_word.into(),
                Expr::from(byte_index) + Expr::konst(aw, 1),
                byte_index.into(),
            ),
        ),
        "0 with the head, one up per data byte sent.",
    );
    m.assign(
        read_addr,
        Expr::from(byte_index) + extend(data_word.into(), 1, aw),
        "One ahead: the byte read in this cycle is the one sent in the next, so read_data holds data byte j in the cycle its word is chosen.",
    );
}

/// Receiver: which part of an arriving worm each word is.
fn receiver(m: &mut Module, s: &Sizes, io: &Io) -> Receiver {
    let Sizes { kw, dw, .. } = *s;
    let Io {
        arr_valid,
        arr_ctl,
        arr_data,
        ..
    } = *io;
    let rx_states = m.states(3, &RX_STATES);
    let [r_idle, r_src, r_len, r_data, r_skip] = rx_states[..] else {
        unreachable!("five receiver states")
    };
    let rx_state = m.internal("rx_state", 3, "the receiver's place in an arriving worm");
    let in_rx = |s: ConstId| Expr::from(rx_state).eq(s.into());
    let rx_count = m.internal("rx_count", 8, "source letters or data bytes taken so far");
    let rx_acc = m.internal("rx_acc", kw, "the source word, letters shifted in");
    let rx_n = m.internal("rx_n", 8, "the arriving message's byte count");
    let control = Expr::from(arr_valid).and(arr_ctl.into());
    let plain = Expr::from(arr_valid).and(!Expr::from(arr_ctl));
    let head_in = m.internal("head_in", 1, "a head arrives while idle");
    m.assign(
        head_in,
        control.clone().and(in_rx(r_idle)),
        "A control word between worms starts one: x1.",
    );
    let early = m.internal(
        "early",
        1,
        "a control word before the last byte: the worm ended early",
    );
    m.assign(
        early,
        control
            .clone()
            .and(Expr::or_all([in_rx(r_src), in_rx(r_len), in_rx(r_data)])),
        "An EOD before byte n.",
    );
    let src_in = m.internal("src_in", 1, "a source letter arrives");
    m.assign(src_in, plain.clone().and(in_rx(r_src)), "Letters x2..xk.");
    let len_in = m.internal("len_in", 1, "the byte count arrives");
    m.assign(len_in, plain.clone().and(in_rx(r_len)), "Word n.");
    let zero_len = m.internal("zero_len", 1, "the byte count is 0: an error");
    m.assign(
        zero_len,
        Expr::from(len_in).and(low_byte(arr_data, dw).eq(Expr::zero(8))),
        "n = 0.",
    );
    let data_in = m.internal("data_in", 1, "a data byte arrives");
    m.assign(data_in, plain.and(in_rx(r_data)), "Bytes 1..n.");
    let rx_next = m.internal("rx_next", 8, "rx_count + 1");
    m.assign(
        rx_next,
        Expr::from(rx_count) + Expr::konst(8, 1),
        "One more taken.",
    );
    let last_in = m.internal("last_in", 1, "byte n arrives");
    m.assign(
        last_in,
        Expr::from(data_in).and(Expr::from(rx_next).eq(rx_n.into())),
        "The last byte.",
    );
    Receiver {
        states: [r_idle, r_src, r_len, r_data, r_skip],
        rx_state,
        rx_count,
        rx_acc,
        rx_n,
        head_in,
        early,
        src_in,
        len_in,
        zero_len,
        data_in,
        rx_next,
        last_in,
    }
}

/// Receiver: its state and its count of letters or bytes.
fn receiver_state(m: &mut Module, s: &Sizes, io: &Io, r: &Receiver) {
    let k = s.k;
    let Receiver {
        states: [r_idle, r_src, r_len, r_data, r_skip],
        rx_state,
        rx_count,
        head_in,
        early,
        src_in,
        len_in,
        zero_len,
        data_in,
        rx_next,
        last_in,
        ..
    } = *r;
    let in_rx = |s: ConstId| r.is(s);
    let control = control_in(io);
    let after_head = if k == 1 { r_len } else { r_src };
    let src_done = Expr::from(src_in).and(Expr::from(rx_next).eq(Expr::konst(8, u64::from(k))));
    m.register(
        rx_state,
        0,
        Expr::mux(
            head_in.into(),
            after_head.into(),
            Expr::mux(
                early.into(),
                r_idle.into(),
                Expr::mux(
                    Expr::from(zero_len).or(last_in.into()),
                    r_skip.into(),
                    Expr::mux(
                        src_done,
                        r_len.into(),
                        Expr::mux(
                            len_in.into(),
                            r_data.into(),
                            Expr::mux(
                                in_rx(r_skip).and(control),
                                r_idle.into(),
                                rx_state.into(),
                            ),
                        ),
                    ),
                ),
            ),
        ),
        "Head, k-1 more letters, n, n bytes, then skip to the EOD; an early control word or n = 0 is an error.",
    );
    m.register(
        rx_count,
        0,
        Expr::mux(
            head_in.into(),
            Expr::konst(8, 1),
            Expr::mux(
                len_in.into(),
                Expr::zero(8),
                Expr::mux(
                    Expr::from(src_in).or(data_in.into()),
                    rx_next.into(),
                    rx_count.into(),
                ),
            ),
        ),
        "Letters from the head on, bytes from n on.",
    );
}

/// Receiver: the source word and byte count taken in, and the outputs to the processor.
fn receiver_outputs(m: &mut Module, s: &Sizes, io: &Io, r: &Receiver) {
    let Receiver {
        rx_count,
        rx_acc,
        rx_n,
        head_in,
        early,
        src_in,
        len_in,
        zero_len,
        data_in,
        last_in,
        ..
    } = *r;
    shift_in_address(
        m,
        s,
        io,
        (rx_acc, Expr::from(head_in).or(src_in.into())),
        "Each letter shifted in at the bottom (its low W bits): x1 ends most significant.",
    );
    m.register(
        rx_n,
        0,
        Expr::mux(len_in.into(), low_byte(io.arr_data, s.dw), rx_n.into()),
        "n, the low byte of its word.",
    );
    hand_out(
        m,
        (s.kw, s.dw, io),
        (data_in.into(), rx_count, last_in.into()),
        (rx_acc, rx_n),
        (
            Expr::from(early).or(zero_len.into()),
            "A worm that ended before its bytes, or had none.",
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_validates() {
        for (d, k, n) in [(1, 1, 1), (2, 3, 16), (3, 2, 255), (4, 5, 7), (2, 1, 2)] {
            let p = RouterParams::new(d, k, n, DEFAULT_TOP).unwrap();
            assert_eq!(design(&p).validate(), Ok(()), "K({d},{k}) {n}");
            for fault in [RouterFault::RouteTakenLate, RouterFault::PaddingForgotten] {
                let p = p.clone().with_fault(Some(fault));
                assert_eq!(design(&p).validate(), Ok(()), "{fault:?}");
            }
        }
    }

    #[test]
    fn refuses_a_buffer_of_no_bytes_or_too_many() {
        for n in [0, 256] {
            assert_eq!(
                RouterParams::new(2, 3, n, DEFAULT_TOP).unwrap_err(),
                RouterError::MaxBytes(n)
            );
        }
        assert_eq!(
            RouterParams::new(16, 3, 16, DEFAULT_TOP).unwrap_err(),
            RouterError::Degree(16)
        );
    }
}
