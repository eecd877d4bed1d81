//! The network switch of Smit, Havinga and Jansen, "On the design of a dynamic reconfigurable
//! network switch" (1991; see docs/papers.md): a (d+1)x(d+1) bufferless wormhole crossbar
//! that consumes one route byte per hop and answers NACK when a worm cannot go on.
//!
//! In: [`SwitchParams`] (the switch's [`SwitchConfig`], a built-in fault for verification,
//! the top's name). Out: a [`Design`] of two modules, computing exactly what the network
//! model's switch (src/models/network/switch.rs) computes in every cycle (docs/switch.md is the
//! specification of both):
//! - **output** (one instance per output port): the arbiter's priority (round-robin or
//!   fixed), the one-hot owner register, the `first` flag that marks the first word
//!   forwarded as the next head, and the output link's registers behind an AND-OR
//!   multiplexer of the inputs;
//! - **top**: the input side (which words are heads, which of them are accepted, decided
//!   per input in `switch_decision.rs` from the outputs' availability and priority,
//!   the drop flags and the NACK registers towards the senders) and the instances. The
//!   buffered switches (`switch_buffers.rs`) arbitrate in the outputs instead.
//!
//! The grant is registered (the owner) before any word goes through it, so the arbitration
//! and the NACK logic are never on the datapath, which is the owner-selected AND-OR
//! multiplexer into the output registers.

use super::switch_decision::decide_heads;
use super::switch_parts::{
    Crossbar, InputVectors, Link, Offer, OutputPorts, OutputState, SwitchIo, bit, gate,
    input_vectors, output_instance,
};
use super::switch_registered;
use crate::choice::choice;
use crate::clocking::Rendezvous;
use crate::fabric::switch::{Arbiter, Flow, HeadDecode, SwitchConfig, SwitchFault};
use crate::rtl::ir::{
    Connections, Design, Direction, Expr, Module, SignalId, SignalKind, Timing, port_struct, ports,
};
use std::collections::BTreeMap;

/// Default top module name.
pub const DEFAULT_TOP: &str = "kautz_switch";

choice! {
    /// How the switch is clocked.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum SwitchClocking {
        #[default]
        Synchronous = "synchronous":
            "One clock for every switch (the default: timing analysis, no loops)",
        SelfTimed = "self-timed":
            "Fig. 3 of the network-switch paper (Smit et al. 1991): each switch makes its own \
            clock from a Muller-C rendezvous of its neighbours' clocks (cl/cla on every \
            network link)",
    }
}

choice! {
    /// A fault of the self-timed switch's clocking, built in to see the ring's check fail.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum SelfTimedFault {
        RisingEdgeSampling = "rising-edge-sampling":
            "The network-switch paper's own scheme: the core samples its links at the rising \
            edge of the node clock directly, without the falling-edge capture, and races its \
            neighbours",
        LevelRendezvous = "level-rendezvous":
            "The rendezvous as the network-switch paper draws it: one C element over the \
            levels of the neighbours' clocks, which stops for some wire delays",
    }
}

choice! {
    /// Where the bufferless switch decides which heads win their outputs.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub enum HeadDecision {
        #[default]
        PerInput = "per-input":
            "Each input decides from all heads' route bytes and the outputs' availability \
            and priority whether its head is accepted (the default, the faster, with \
            --head-decode same-cycle)",
        PerOutput = "per-output":
            "Each output's arbiter grants one of its requests and each input ORs its grants \
            (fewer LUTs; the default, the faster, with --head-decode registered)",
    }
}

impl HeadDecision {
    /// The faster decision behind each head decode (docs/switch.md): per input when the
    /// route byte is compared in the decision's cycle, per output behind the registered
    /// decode, whose one-hot requests leave the per-input form only its extra LUTs.
    pub fn default_for(decode: HeadDecode) -> Self {
        match decode {
            HeadDecode::SameCycle => HeadDecision::PerInput,
            HeadDecode::Registered => HeadDecision::PerOutput,
        }
    }
}

/// What to build: the switch of `config`, clocked by `clocking`, with `fault` (or, for the
/// self-timed switch, `self_timed_fault`) built in for verification only, as the module
/// `top`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SwitchParams {
    pub config: SwitchConfig,
    pub clocking: SwitchClocking,
    pub fault: Option<SwitchFault>,
    pub self_timed_fault: Option<SelfTimedFault>,
    /// The bufferless switch's; the buffered ones always arbitrate per output.
    pub head_decision: HeadDecision,
    pub top: String,
}

impl SwitchParams {
    /// The fault-free switch of `config` under the default top name.
    pub fn new(config: SwitchConfig) -> Self {
        SwitchParams {
            config,
            clocking: SwitchClocking::Synchronous,
            fault: None,
            self_timed_fault: None,
            head_decision: HeadDecision::PerInput,
            top: DEFAULT_TOP.to_string(),
        }
    }

    pub fn with_top(self, top: &str) -> Self {
        SwitchParams {
            top: top.to_string(),
            ..self
        }
    }

    pub fn with_fault(self, fault: Option<SwitchFault>) -> Self {
        SwitchParams { fault, ..self }
    }

    pub fn with_head_decision(self, head_decision: HeadDecision) -> Self {
        SwitchParams {
            head_decision,
            ..self
        }
    }

    pub fn with_clocking(self, clocking: SwitchClocking) -> Self {
        SwitchParams { clocking, ..self }
    }

    pub fn with_self_timed_fault(self, self_timed_fault: Option<SelfTimedFault>) -> Self {
        SwitchParams {
            self_timed_fault,
            ..self
        }
    }

    /// How the self-timed switch makes its node clock: the paper's level rendezvous only as
    /// the deliberate fault.
    pub fn rendezvous(&self) -> Rendezvous {
        match self.self_timed_fault {
            Some(SelfTimedFault::LevelRendezvous) => Rendezvous::Level,
            _ => Rendezvous::PerWire,
        }
    }

    /// "3x3 wormhole switch with NACK (d = 2, 8 data bits, round-robin arbitration)".
    pub fn describe(&self) -> String {
        let c = &self.config;
        let arbiter = match c.arbiter() {
            Arbiter::RoundRobin => "round-robin",
            Arbiter::Fixed => "fixed-priority",
        };
        let clocking = match self.clocking {
            SwitchClocking::Synchronous => "",
            SwitchClocking::SelfTimed => ", self-timed",
        };
        let decode = match c.head_decode() {
            HeadDecode::SameCycle => "",
            HeadDecode::Registered => ", registered head decode",
        };
        let (kind, buffers) = match c.flow() {
            Flow::Nack => ("wormhole", String::new()),
            Flow::Vct => ("virtual cut-through", buffers_of(c.buffer_words())),
            Flow::Saf => ("store-and-forward", buffers_of(c.buffer_words())),
        };
        format!(
            "{p}x{p} {kind} switch with NACK (d = {}, {} data bits, {arbiter} arbitration{buffers}{decode}{clocking})",
            c.d(),
            c.data_bits(),
            p = c.ports()
        )
    }
}

/// ", a 32-word buffer per input".
fn buffers_of(words: usize) -> String {
    format!(", a {words}-word buffer per input")
}

/// The switch's hardware.
pub fn design(params: &SwitchParams) -> Design {
    let output = output_module(params);
    let c = &params.config;
    let (modules, timing) = match params.clocking {
        SwitchClocking::Synchronous => {
            let top = switch_module(params, &params.top, &output);
            (vec![output.0, top], Timing::Synchronous)
        }
        SwitchClocking::SelfTimed => {
            let core = switch_module(params, &format!("{}_core", params.top), &output);
            match params.self_timed_fault {
                Some(SelfTimedFault::RisingEdgeSampling) => {
                    let top = self_timed_top(params, &core, None);
                    (vec![output.0, core, top], Timing::SelfTimed)
                }
                None | Some(SelfTimedFault::LevelRendezvous) => {
                    let capture = capture_module(params, &core);
                    let top = self_timed_top(params, &core, Some(&capture));
                    (vec![output.0, core, capture.0, top], Timing::SelfTimed)
                }
            }
        }
    };
    let mut design_params = BTreeMap::from([
        ("d".to_string(), c.d() as u64),
        ("data_bits".to_string(), c.data_bits() as u64),
    ]);
    if c.flow() != Flow::Nack {
        design_params.insert("buffer_words".to_string(), c.buffer_words() as u64);
    }
    // Named only when it is not one, so that the registered decode's reports and manifests
    // tell it apart from the same-cycle switch of the same size.
    if c.hop_cycles() != 1 {
        design_params.insert("hop_cycles".to_string(), c.hop_cycles());
    }
    Design {
        params: design_params,
        summary: params.describe(),
        modules,
        timing,
    }
}

/// The lowest set bit of `signal` alone: bit i is set when bit i is and no bit below it
/// is. Written out rather than as `x & -x`, whose carry chain is slower for a few ports.
fn lowest_set_bit(signal: SignalId, width: u32) -> Expr {
    let parts = (0..width)
        .rev()
        .map(|i| bit(signal, i).and(!Expr::or_all((0..i).map(|j| bit(signal, j)))));
    Expr::concat(parts.collect())
}

/// The output module's signals that become its ports, less the clock and the reset.
struct OutputSignals {
    /// Per-output head decision only: the heads that ask for this output.
    req: Option<SignalId>,
    /// Per-input head decision only: this output may take a new worm.
    available: Option<SignalId>,
    /// Per-input head decision only: the arbiter's priority, for the input side.
    priority: Option<SignalId>,
    /// Per-input head decision only: some head asks for this output (granted or not).
    asked: Option<SignalId>,
    fault: SignalId,
    nack: SignalId,
    in_valid: SignalId,
    in_ctl: SignalId,
    in_data: SignalId,
    grant: SignalId,
    owner: SignalId,
    out_valid: SignalId,
    out_ctl: SignalId,
    out_data: SignalId,
}

/// The owner's word, as the AND-OR multiplexer selects it (all zero when free).
struct OwnerWord {
    valid: SignalId,
    ctl: SignalId,
    data: SignalId,
}

/// One output port: arbiter, owner, first flag and the link's registers.
fn output_module(params: &SwitchParams) -> (Module, OutputPorts) {
    let c = &params.config;
    let (p, w) = (c.ports() as u32, c.data_bits());
    let mut m = Module::new(
        format!("{}_output", params.top),
        &[
            "One output port of the switch: its arbiter, its owner and its output link.",
            "The owner (one-hot over the inputs) is registered from the grant before any",
            "word goes through, so the datapath is the AND-OR multiplexer it selects.",
        ],
    );
    let clocking = m.clocked();
    let io = output_signals(&mut m, p, w, per_input_decision(params));
    let first = m.internal(
        "first",
        1,
        "the cycle after the grant: the word forwarded now is the next switch's head",
    );
    let held = match io.req {
        Some(req) => arbitrate(&mut m, c.arbiter(), &io, req, first, p),
        None => offer(&mut m, c.arbiter(), &io, first, p),
    };
    let word = owner_word(&mut m, &io, p, w);
    owner_and_link_registers(&mut m, params.fault, &io, (held, first), &word, p);
    let OutputSignals {
        req,
        available,
        priority,
        asked,
        fault,
        nack,
        in_valid,
        in_ctl,
        in_data,
        grant,
        owner,
        out_valid,
        out_ctl,
        out_data,
    } = io;
    let ports = ports!(
        m,
        OutputPorts {
            clk = clocking.clock, rst = clocking.reset, req: ?, available: ?, priority: ?,
            asked: ?, fault, nack, in_valid, in_ctl, in_data, grant, owner, out_valid, out_ctl, out_data,
        }
    );
    (m, ports)
}

/// The output module's ports, in port order.
fn output_signals(m: &mut Module, p: u32, w: u32, per_input: bool) -> OutputSignals {
    let req = (!per_input).then(|| {
        m.input(
            "req",
            p,
            "bit i: a head on input i asks for this output this cycle",
        )
    });
    let available =
        per_input.then(|| m.output("available", 1, "free and not faulty: may take a new worm"));
    let priority = per_input.then(|| {
        m.output(
            "priority",
            p,
            "the inputs the arbiter puts first (the others after, each part in input order)",
        )
    });
    let fault = m.input("fault", 1, "this output is faulty: grant it to no new worm");
    let nack = m.input(
        "nack",
        1,
        "NACK from the receiver: the worm through here was dropped further on",
    );
    let in_valid = m.input(
        "in_valid",
        p,
        "valid bit of every input link, input i at bit i",
    );
    let in_ctl = m.input(
        "in_ctl",
        p,
        "type bit of every input link, input i at bit i",
    );
    let in_data = m.input(
        "in_data",
        p * w,
        "data of every input link, input i at bits i*W up",
    );
    let asked = per_input.then(|| {
        m.input(
            "asked",
            1,
            "some head asks for this output this cycle, granted or not",
        )
    });
    let grant_doc = "bit i: the head on input i is granted this output this cycle";
    let grant = if per_input {
        m.input("grant", p, grant_doc)
    } else {
        m.output("grant", p, grant_doc)
    };
    let owner = m.output(
        "owner",
        p,
        "bit i: input i holds this output (one-hot; 0 when free)",
    );
    let out_valid = m.output("out_valid", 1, "output link: valid bit");
    let out_ctl = m.output("out_ctl", 1, "output link: type bit (head or EOD)");
    let out_data = m.output("out_data", w, "output link: data");
    OutputSignals {
        req,
        available,
        priority,
        asked,
        fault,
        nack,
        in_valid,
        in_ctl,
        in_data,
        grant,
        owner,
        out_valid,
        out_ctl,
        out_data,
    }
}

/// The arbiter: drives `grant` from the requests when the output is free and not faulty.
/// Returns `held`, high while a worm holds the output.
fn arbitrate(
    m: &mut Module,
    arbiter: Arbiter,
    io: &OutputSignals,
    req: SignalId,
    first: SignalId,
    p: u32,
) -> SignalId {
    let held = m.internal("held", 1, "a worm holds this output");
    m.assign(
        held,
        Expr::from(io.owner).any(),
        "Held while it has an owner.",
    );
    let available = m.internal("available", 1, "free and not faulty: may be granted");
    m.assign(
        available,
        (!Expr::from(held)).and(!Expr::from(io.fault)),
        "Only a free output that is not faulty takes a new worm.",
    );
    let mask = priority_mask(m, arbiter, io.owner, first, p);
    let masked = m.internal("masked", p, "the requests the priority puts first");
    m.assign(
        masked,
        Expr::from(req).and(mask),
        "Requests at or after the pointer.",
    );
    let choice = m.internal(
        "choice",
        p,
        "the request that wins if the output is available",
    );
    m.assign(
        choice,
        Expr::mux(
            Expr::from(masked).any(),
            lowest_set_bit(masked, p),
            lowest_set_bit(req, p),
        ),
        "The first request at or after the pointer, else the first of all: cyclic order from the pointer.",
    );
    m.assign(
        io.grant,
        gate(available.into(), choice.into(), p),
        "Grant the winner when the output is available; the other heads are refused.",
    );
    held
}

/// Per-input head decision: the output offers itself (`available`) and its arbiter's
/// priority to the input side, which decides the grant. Returns `held`.
fn offer(
    m: &mut Module,
    arbiter: Arbiter,
    io: &OutputSignals,
    first: SignalId,
    p: u32,
) -> SignalId {
    let (available, priority) = (
        io.available.expect("per-input decision"),
        io.priority.expect("per-input decision"),
    );
    let held = m.internal("held", 1, "a worm holds this output");
    m.assign(
        held,
        Expr::from(io.owner).any(),
        "Held while it has an owner.",
    );
    m.assign(
        available,
        (!Expr::from(held)).and(!Expr::from(io.fault)),
        "Only a free output that is not faulty takes a new worm.",
    );
    let mask = priority_mask(m, arbiter, io.owner, first, p);
    m.assign(
        priority,
        mask,
        "The input side decides with the same order as the per-output arbiter.",
    );
    held
}

/// Whether the switch decides its heads per input (the bufferless switch, unless asked
/// otherwise) rather than in each output's arbiter (always for the buffered ones, whose
/// requests come from their buffers).
fn per_input_decision(params: &SwitchParams) -> bool {
    params.config.flow() == Flow::Nack && params.head_decision == HeadDecision::PerInput
}

/// The inputs the arbiter puts first: the round-robin pointer's register, or the fixed
/// priority as a constant.
fn priority_mask(
    m: &mut Module,
    arbiter: Arbiter,
    owner: SignalId,
    first: SignalId,
    p: u32,
) -> Expr {
    match arbiter {
        Arbiter::RoundRobin => {
            let mask = m.internal(
                "pointer",
                p,
                "round-robin pointer as a thermometer: the inputs at or after it",
            );
            // The output is held through the cycle after a grant (`first`), so the
            // pointer can move then, from the registered owner: the same as moving at the
            // grant, for no arbitration reads it meanwhile, and off the grant's path.
            let above = Expr::concat(
                (0..p)
                    .rev()
                    .map(|k| Expr::or_all((0..k).map(|j| bit(owner, j))))
                    .collect(),
            );
            m.register(
                mask,
                reset_mask(p),
                Expr::mux(first.into(), above, mask.into()),
                "After a grant the inputs above the winner come first; at reset the order is 1, 2, ..., d, 0.",
            );
            Expr::from(mask)
        }
        // Network inputs 1, 2, ..., d first, the local router last, for ever.
        Arbiter::Fixed => Expr::konst(p, reset_mask(p)),
    }
}

/// The crossbar's share of this output: the owner's valid bit, type bit and data.
fn owner_word(m: &mut Module, io: &OutputSignals, p: u32, w: u32) -> OwnerWord {
    let valid = m.internal("sel_valid", 1, "valid bit of the owner's input");
    m.assign(
        valid,
        Expr::from(io.owner).and(io.in_valid.into()).any(),
        "The owner's valid bit (0 when free).",
    );
    let ctl = m.internal("sel_ctl", 1, "type bit of the owner's input");
    m.assign(
        ctl,
        Expr::from(io.owner).and(io.in_ctl.into()).any(),
        "The owner's type bit (0 when free).",
    );
    let data = m.internal("sel_data", w, "data of the owner's input (0 when free)");
    let slices = (0..p).map(|i| {
        gate(
            bit(io.owner, i),
            Expr::Slice {
                signal: io.in_data,
                lo: i * w,
                width: w,
            },
            w,
        )
    });
    m.assign(
        data,
        slices.reduce(Expr::or).expect("a switch has ports"),
        "The crossbar: an AND-OR multiplexer selected by the one-hot owner.",
    );
    OwnerWord { valid, ctl, data }
}

/// The owner and `first` registers, and the output link's registers that take the owner's
/// word.
fn owner_and_link_registers(
    m: &mut Module,
    fault: Option<SwitchFault>,
    io: &OutputSignals,
    (held, first): (SignalId, SignalId),
    word: &OwnerWord,
    p: u32,
) {
    let release = match fault {
        Some(SwitchFault::OutputKeptAfterEod) => Expr::from(io.nack),
        _ => {
            let eod = m.internal("eod", 1, "the owner's word is its EOD");
            m.assign(
                eod,
                Expr::from(word.valid).and(word.ctl.into()),
                "A control word inside a worm is its End Of Data.",
            );
            Expr::from(io.nack).or(eod.into())
        }
    };
    m.register(
        io.owner,
        0,
        Expr::mux(
            held.into(),
            Expr::mux(release, Expr::zero(p), io.owner.into()),
            io.grant.into(),
        ),
        "Held until the EOD has passed or the worm is NACKed further on; taken by a grant when free.",
    );
    // With the per-input decision, an available output that some head asks for grants
    // one of them: the same as ORing its grants, without waiting for the decision.
    let granting = match (io.available, io.asked) {
        (Some(available), Some(asked)) => Expr::from(available).and(asked.into()),
        _ => Expr::from(io.grant).any(),
    };
    m.register(
        first,
        0,
        granting,
        "Set for the one cycle after a grant (only a free output grants).",
    );
    let valid_next = m.internal("valid_next", 1, "the output link's valid bit next cycle");
    m.assign(
        valid_next,
        Expr::and_all([
            held.into(),
            !Expr::from(io.nack),
            word.valid.into(),
            !(Expr::from(first).and(word.ctl.into())),
        ]),
        "Forward the owner's word unless NACKed (the sender stops) or it is an EOD right behind the head (nothing left to send on).",
    );
    m.register(
        io.out_valid,
        0,
        valid_next.into(),
        "Output link register: one hop per clock.",
    );
    m.register(
        io.out_ctl,
        0,
        Expr::from(valid_next).and(Expr::from(word.ctl).or(first.into())),
        "The first word forwarded becomes the next head; an EOD stays a control word.",
    );
    m.register(
        io.out_data,
        0,
        word.data.into(),
        "Data goes through unchanged.",
    );
}

/// The round-robin mask at reset, and the fixed priority: every input but the local
/// router's (bit 0) first.
fn reset_mask(ports: u32) -> u64 {
    let all = if ports == 64 {
        u64::MAX
    } else {
        (1u64 << ports) - 1
    };
    all & !1
}

/// The synchronous switch: input links, NACKs towards the senders, and the outputs. The
/// top of the synchronous design, the core of the self-timed one.
fn switch_module(params: &SwitchParams, name: &str, output: &(Module, OutputPorts)) -> Module {
    let c = &params.config;
    let (p, w) = (c.ports() as u32, c.data_bits());
    let mut m = Module::new(
        name,
        &[
            &format!(
                "Network switch of the network-switch paper (Smit et al. 1991): {}.",
                params.describe()
            ),
            "Port 0 is the local router, ports 1..d the network links. A worm is a head",
            "(ctl=1, data = output port), body words and an EOD (ctl=1); each switch",
            "consumes the head and marks the next word as the new head. A head that cannot",
            "have its output is dropped and NACKed (docs/switch.md).",
        ],
    );
    let io = switch_io(&mut m, p, w);
    let registered = c.head_decode() == HeadDecode::Registered;
    let inputs = input_vectors(&mut m, &io.ins, (p, w), registered);
    match c.flow() {
        Flow::Nack => {
            let per_input = per_input_decision(params);
            let decode = registered.then(|| switch_registered::decode(&mut m, &io.ins, p, w));
            let crossbar = Crossbar {
                valid: inputs.all_valid,
                ctl: inputs.all_ctl,
                data: inputs.all_data,
                requests: match (per_input, &decode) {
                    (true, _) => Vec::new(),
                    (false, None) => (0..p).map(|o| head_requests(&io, &inputs, o, w)).collect(),
                    (false, Some(decode)) => (0..p)
                        .map(|o| switch_registered::requests(&inputs, decode, o))
                        .collect(),
                },
            };
            let outputs: Vec<OutputState> = (0..p)
                .map(|o| output_instance(&mut m, output, &io, &crossbar, o))
                .collect();
            if per_input {
                let offers: Vec<Offer> = outputs
                    .iter()
                    .map(|out| out.offer.expect("the outputs offer themselves"))
                    .collect();
                let grants: Vec<SignalId> = outputs.iter().map(|out| out.grant).collect();
                decide_heads(&mut m, &io, (&inputs, decode.as_ref()), &offers, &grants, w);
            } else {
                m.assign(
                    inputs.accepted,
                    Expr::or_all(outputs.iter().map(|out| Expr::from(out.grant))),
                    "Granted by some output.",
                );
            }
            input_state(&mut m, &inputs, &outputs, p);
            match &decode {
                None => input_registers(&mut m, params.fault, &inputs, &io.ins, p),
                Some(decode) => switch_registered::input_registers(
                    &mut m,
                    params.fault,
                    (&inputs, decode),
                    &io.ins,
                    p,
                ),
            }
        }
        Flow::Vct | Flow::Saf => super::switch_buffers::buffered_input_side(
            &mut m,
            (c, params.fault),
            &io,
            &inputs,
            output,
        ),
    }
    m
}

/// Output `o`'s requests without buffers: the heads whose route byte is `o`.
fn head_requests(io: &SwitchIo, inputs: &InputVectors, o: u32, w: u32) -> (Expr, String) {
    let p = io.ins.len() as u32;
    let wants = (0..p).rev().map(|i| {
        bit(inputs.head, i).and(Expr::from(io.ins[i as usize].data).eq(Expr::konst(w, o as u64)))
    });
    (
        Expr::concat(wants.collect()),
        format!("Heads whose route byte is {o}."),
    )
}

/// The switch's clock, reset and fault bits, then its input links and its output links.
fn switch_io(m: &mut Module, p: u32, w: u32) -> SwitchIo {
    let clocking = m.clocked();
    let fault = m.input(
        "fault",
        p,
        "bit p: output p is faulty and takes no new worm",
    );
    let ins = (0..p).map(|i| input_link(m, i, w)).collect();
    let outs = (0..p).map(|o| output_link(m, o, w)).collect();
    SwitchIo {
        clocking,
        fault,
        ins,
        outs,
    }
}

/// Input link `i`'s ports: the word in, the NACK back to its sender.
fn input_link(m: &mut Module, i: u32, w: u32) -> Link {
    let link = if i == 0 {
        "from the local router".to_string()
    } else {
        format!("network link {i}")
    };
    let valid = m.input(
        &format!("in{i}_valid"),
        1,
        &format!("input {i} ({link}): a word this cycle"),
    );
    let ctl = m.input(
        &format!("in{i}_ctl"),
        1,
        &format!("input {i}: type bit, a head or an EOD"),
    );
    let data = m.input(&format!("in{i}_data"), w, &format!("input {i}: data"));
    let nack = m.output(
        &format!("in{i}_nack"),
        1,
        &format!("input {i}: NACK back to its sender"),
    );
    Link {
        valid,
        ctl,
        data,
        nack,
    }
}

/// Output link `o`'s ports: the word out, the NACK from its receiver.
fn output_link(m: &mut Module, o: u32, w: u32) -> Link {
    let link = if o == 0 {
        "to the local router".to_string()
    } else {
        format!("network link {o}")
    };
    let valid = m.output(
        &format!("out{o}_valid"),
        1,
        &format!("output {o} ({link}): a word this cycle"),
    );
    let ctl = m.output(&format!("out{o}_ctl"), 1, &format!("output {o}: type bit"));
    let data = m.output(&format!("out{o}_data"), w, &format!("output {o}: data"));
    let nack = m.input(
        &format!("out{o}_nack"),
        1,
        &format!("output {o}: NACK from its receiver"),
    );
    Link {
        valid,
        ctl,
        data,
        nack,
    }
}

/// What the outputs say about each input: forwarding, NACKed; and which words are heads
/// (whether a head is accepted, [`decide_heads`] says).
fn input_state(m: &mut Module, inputs: &InputVectors, outputs: &[OutputState], p: u32) {
    m.assign(
        inputs.forwarding,
        Expr::or_all(outputs.iter().map(|out| Expr::from(out.owner))),
        "An input forwards while it owns an output.",
    );
    m.assign(
        inputs.head,
        Expr::and_all([
            !Expr::from(inputs.busy),
            inputs.all_valid.into(),
            inputs.all_ctl.into(),
        ]),
        "A control word on an input that is neither forwarding nor dropping starts a worm.",
    );
    m.assign(
        inputs.nacked,
        Expr::or_all(
            outputs
                .iter()
                .map(|out| gate(out.nack.into(), out.owner.into(), p)),
        ),
        "A NACK on an output reaches the input that holds it.",
    );
}

/// The input side's registers: `busy`, and the NACKs towards the senders.
fn input_registers(
    m: &mut Module,
    fault: Option<SwitchFault>,
    inputs: &InputVectors,
    ins: &[Link],
    p: u32,
) {
    let eod = Expr::from(inputs.all_valid).and(inputs.all_ctl.into());
    let refused = Expr::from(inputs.head).and(!Expr::from(inputs.accepted));
    let cut = Expr::from(inputs.nacked).and(!eod.clone());
    // An input goes on forwarding until its output is released: by a NACK, or by its EOD
    // (which the fault keeps from releasing).
    let released = match fault {
        Some(SwitchFault::OutputKeptAfterEod) => Expr::from(inputs.nacked),
        _ => Expr::from(inputs.nacked).or(eod),
    };
    let still_forwarding = Expr::from(inputs.forwarding).and(!released);
    m.register(
        inputs.busy,
        0,
        Expr::or_all([inputs.head.into(), still_forwarding, cut.clone()]),
        "Busy next cycle after a head (granted: forwarding; refused: dropping the one word still on the wire, its sender stops the cycle after), while not yet released, and after a NACK.",
    );
    // The fault masks the refused heads' NACKs off, in plain sight in the HDL.
    let nack_back = match fault {
        Some(SwitchFault::NackNotReturned) => refused.and(Expr::zero(p)).or(cut),
        _ => refused.or(cut),
    };
    let nack_all = m.internal("nack_all", p, "bit i: NACK to input i's sender next cycle");
    m.register(
        nack_all,
        0,
        nack_back,
        "NACK a refused head, and pass a NACK back while the worm is still coming in (not in its EOD's cycle: its sender has let go).",
    );
    for (i, link) in ins.iter().enumerate() {
        m.assign(
            link.nack,
            bit(nack_all, i as u32),
            &format!("Input {i}'s NACK."),
        );
    }
}

/// The switch core's inputs other than `clk` and `rst`, in port order.
fn data_inputs(core: &Module) -> Vec<(String, u32)> {
    let clocking = core.clocking.expect("the core is clocked");
    core.ports()
        .filter(|(id, s)| {
            s.kind == SignalKind::Port(Direction::Input)
                && *id != clocking.clock
                && *id != clocking.reset
        })
        .map(|(_, s)| (s.name.clone(), s.width))
        .collect()
}

port_struct!(
    /// The capture's ports: `inputs` and `captured` in the order of the core's data inputs.
    struct CapturePorts { clk, rst, inputs: [], captured: [] }
);

/// Self-timed only: registers that take every input of the core at the falling edge of the
/// node's clock (their `clk` is its inverse). A neighbour changes its outputs at its rising
/// edges, and the rendezvous lets it rise again only after this switch's clock has fallen:
/// so the falling edge sees exactly the values of the neighbour's last cycle, as a common
/// clock would (docs/switch.md, "Self-timed clocking").
fn capture_module(params: &SwitchParams, core: &Module) -> (Module, CapturePorts) {
    let mut m = Module::new(
        format!("{}_capture", params.top),
        &[
            "Input capture of the self-timed switch: every input link, NACK and fault bit",
            "registered at the falling edge of the node clock (clk is its inverse).",
        ],
    );
    let clocking = m.clocked();
    let (mut inputs, mut captured) = (Vec::new(), Vec::new());
    for (name, width) in data_inputs(core) {
        let d = m.input(&name, width, &format!("{name} as it arrives"));
        let q = m.output(
            &format!("{name}_q"),
            width,
            &format!("{name} as the last falling edge saw it"),
        );
        m.register(q, 0, d.into(), &format!("Capture {name}."));
        inputs.push(d);
        captured.push(q);
    }
    let ports = ports!(
        m,
        CapturePorts { clk = clocking.clock, rst = clocking.reset, inputs: [], captured: [] }
    );
    (m, ports)
}

/// Self-timed only: the rendezvous that makes the node clock (per clock wire, or the level
/// rendezvous of Fig. 3 of the network-switch paper, Smit et al. 1991, as a fault), the
/// input capture (none with the fault that samples as the paper does) and the core. Every
/// network link gets the node clock as `cl` (forward) and `cla` (backward) and brings the
/// neighbour's.
fn self_timed_top(
    params: &SwitchParams,
    core: &Module,
    capture: Option<&(Module, CapturePorts)>,
) -> Module {
    let mut m = Module::new(
        params.top.clone(),
        &[
            &format!(
                "Self-timed network switch of the network-switch paper (Smit et al. 1991): {}.",
                params.describe()
            ),
            "No clock comes in: each neighbour's clock wire meets the node clock in a",
            "Muller-C element of its own, a C element over those rises when every wire has",
            "met a high node clock and falls when every one has met a low one, and the node",
            "clock is its inverse: live for any wire delays. The core's registers take their",
            "inputs, captured at the falling edge, at the rising edge, so a network of these",
            "moves the same words, cycle for cycle of their own clocks, as synchronous",
            "switches (docs/switch.md).",
        ],
    );
    let rst = m.input("rst", 1, "synchronous reset, active high, on node_clk");
    // The core runs on the output itself rather than on a copy of it: a copy is a delta
    // cycle later in VHDL, so a local router on node_clk would see the core's registers
    // change in the very delta of its own clock edge and take their new values.
    let node_clk = m.output(
        "node_clk",
        1,
        "the node's clock, made here: the core's, and the local router's",
    );
    let core_side = CoreSide::declare(&mut m, core, capture.is_some());
    let (neighbours, echoes) = clock_wires(&mut m, params.config.d() as u32);
    let rendezvous = node_clock(&mut m, params.rendezvous(), node_clk, &neighbours);
    for echo in echoes {
        m.assign(
            echo,
            node_clk.into(),
            "Every neighbour waits for this clock: cl forward, cla back.",
        );
    }
    if let Some((capture, ports)) = capture {
        let connections = Connections::of(capture)
            .bind(&ports.clk, rendezvous)
            .bind(&ports.rst, rst)
            .bind_all(ports.inputs.iter().zip(core_side.outer_inputs))
            .bind_all(ports.captured.iter().zip(core_side.captured_inputs));
        m.instance(
            "capture",
            connections,
            "Inputs taken at the falling edge of the node clock (the rising edge of the rendezvous).",
        );
    }
    let clocking = core.clocking.expect("the core is clocked");
    let connections = core_side
        .connections
        .bind(&core.port_of(clocking.clock), node_clk)
        .bind(&core.port_of(clocking.reset), rst);
    m.instance(
        "core",
        connections,
        "The synchronous switch on the node clock.",
    );
    m
}

/// The self-timed top's copies of the core's ports other than `clk` and `rst`, and the
/// core's connections to them so far: with a capture, each input reaches the core through
/// a signal `<input>_q` that the capture drives.
struct CoreSide<'a> {
    connections: Connections<'a>,
    outer_inputs: Vec<SignalId>,
    captured_inputs: Vec<SignalId>,
}

impl<'a> CoreSide<'a> {
    fn declare(m: &mut Module, core: &'a Module, through_capture: bool) -> Self {
        let clocking = core.clocking.expect("the core is clocked");
        let mut side = CoreSide {
            connections: Connections::of(core),
            outer_inputs: Vec::new(),
            captured_inputs: Vec::new(),
        };
        for (id, port) in core.ports() {
            if id == clocking.clock || id == clocking.reset {
                continue;
            }
            if port.kind != SignalKind::Port(Direction::Input) {
                let outer = m.output(&port.name, port.width, &port.doc);
                side.connections.add(&core.port_of(id), outer);
                continue;
            }
            let outer = m.input(&port.name, port.width, &port.doc);
            if !through_capture {
                side.connections.add(&core.port_of(id), outer);
                continue;
            }
            let captured = m.internal(
                &format!("{}_q", port.name),
                port.width,
                &format!("{} captured at the falling edge", port.name),
            );
            side.outer_inputs.push(outer);
            side.captured_inputs.push(captured);
            side.connections.add(&core.port_of(id), captured);
        }
        side
    }
}

/// The clock wires of the `d` input and `d` output links: the neighbours' clocks coming
/// in, and the wires that echo the node clock to them.
fn clock_wires(m: &mut Module, d: u32) -> (Vec<SignalId>, Vec<SignalId>) {
    let mut neighbours = Vec::new();
    let mut echoes = Vec::new();
    for j in 1..=d {
        neighbours.push(m.input(
            &format!("in{j}_cl"),
            1,
            &format!("input link {j}: its sender's clock (cl)"),
        ));
        echoes.push(m.output(
            &format!("in{j}_cla"),
            1,
            &format!("input link {j}: this node's clock back to its sender (cla)"),
        ));
    }
    for j in 1..=d {
        echoes.push(m.output(
            &format!("out{j}_cl"),
            1,
            &format!("output link {j}: this node's clock to its receiver (cl)"),
        ));
        neighbours.push(m.input(
            &format!("out{j}_cla"),
            1,
            &format!("output link {j}: its receiver's clock (cla)"),
        ));
    }
    (neighbours, echoes)
}

/// The rendezvous of the `neighbours`' clocks, and `node_clk`, its inverse. Returns the
/// rendezvous, the capture's clock.
fn node_clock(
    m: &mut Module,
    rendezvous_kind: Rendezvous,
    node_clk: SignalId,
    neighbours: &[SignalId],
) -> SignalId {
    let rendezvous = m.internal(
        "rendezvous",
        1,
        "Muller-C element whose inverse is the node clock",
    );
    let (inputs, rule, doc) = match rendezvous_kind {
        Rendezvous::PerWire => (
            met_wires(m, node_clk, neighbours),
            "The rendezvous: rises when every clock wire has met a high node clock, falls when every one has met a low one, else holds.",
            "The node clock falls once every neighbour's clock has risen with it and rises once every one has fallen with it.",
        ),
        Rendezvous::Level => (
            neighbours.iter().map(|&n| Expr::from(n)).collect(),
            "The rendezvous as the network-switch paper draws it: rises when every neighbour's clock is high, falls when every one is low, else holds (deadlocks for some wire delays: a deliberate fault).",
            "The node clock falls when all neighbours have risen and rises when all have fallen.",
        ),
    };
    m.c_element(
        rendezvous,
        inputs,
        true,
        &format!("{rule} It starts high, so the node clock starts low and rises first."),
    );
    m.assign(
        node_clk,
        !Expr::from(rendezvous),
        &format!("{doc} The core and the local router run on it."),
    );
    rendezvous
}

/// Per wire: a C element of each neighbour's clock and the node clock, `<wire>_met`.
fn met_wires(m: &mut Module, node_clk: SignalId, neighbours: &[SignalId]) -> Vec<Expr> {
    neighbours
        .iter()
        .map(|&wire| {
            let name = m.sig(wire).name.clone();
            let seen = m.internal(
                &format!("{name}_met"),
                1,
                &format!("{name} met by the node clock: the level both last reached"),
            );
            m.c_element(
                seen,
                vec![node_clk.into(), wire.into()],
                true,
                &format!(
                    "Takes {name}'s level once the node clock has it too, and holds it until the node clock moves on: a neighbour that is already a cycle ahead is not mistaken for one behind. It starts high, as the node clock's last level before reset."
                ),
            );
            seen.into()
        })
        .collect()
}
