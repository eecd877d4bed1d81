//! The switch of the network-switch paper (Smit et al. 1991): a (d+1)x(d+1) wormhole
//! crossbar that consumes one route byte per hop and answers NACK when a worm's output is
//! taken. The synchronous switch is a stream unit checked against its cycle model in every
//! cycle ([`traffic`]); the self-timed switch is checked as three switches in a ring whose
//! wires have delays ([`ring`]).

pub mod ring;
pub mod traffic;

use crate::choice::Choice;
use crate::emit::names::Language;
use crate::emit::testbench::Testbench;
use crate::fabric::switch::{
    Arbiter, DEFAULT_BUFFER_WORDS, DEFAULT_DATA_BITS, Flow, HeadDecode, SwitchConfig, SwitchFault,
};
use crate::input::{InputError, input_error};
use crate::rtl::ir::{Design, ResetStyle};
use crate::rtl::network::switch::{
    self as rtl_switch, HeadDecision, SelfTimedFault, SwitchClocking, SwitchParams,
};
use crate::sim::delays::Delays;
use crate::sim::stream::StreamUnit;
use crate::sim::{SimError, Simulator};
use crate::units::check::{Check, ExportError, FamilyCheck, Run, Simulation, Verdict};
use crate::units::choice_arg::choice;
use crate::units::options::{And, DelaysArg, FaultArg, WaveArg, read};
use crate::units::{Declared, HardwareUnit, Purpose};
use clap::ArgMatches;
use ring::Ring;
use traffic::SwitchUnit;

/// The switch's size, arbiter and clocking.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Args {
    /// Network links each way (1 to 15); port 0 is the local router, so the switch is
    /// (d+1)x(d+1).
    #[arg(long)]
    pub d: u64,
    /// Data bits per link word (1 to 64, and enough to write the port numbers 0..=d).
    #[arg(long, default_value_t = DEFAULT_DATA_BITS as u64)]
    pub data_bits: u64,
    /// Which head wins an output that several ask for in one cycle.
    #[arg(long, value_parser = choice::<Arbiter>(), default_value = Arbiter::RoundRobin.name())]
    pub arbiter: Arbiter,
    /// Where the bufferless switch decides which heads win their outputs (docs/switch.md,
    /// "Head decision"); --flow vct and saf decide per output [default: per-input;
    /// per-output with --head-decode registered].
    #[arg(long, value_parser = choice::<HeadDecision>())]
    pub head_decision: Option<HeadDecision>,
    /// When the bufferless switch decodes a head: in its own cycle, or from registers in
    /// the next, a cycle more per hop (docs/switch.md, "Registered head decode").
    #[arg(
        long,
        value_parser = choice::<HeadDecode>(),
        default_value = HeadDecode::SameCycle.name()
    )]
    pub head_decode: HeadDecode,
    /// What becomes of a worm whose output is taken (docs/flow-control.md).
    #[arg(long, value_parser = choice::<Flow>(), default_value = Flow::Nack.name())]
    pub flow: Flow,
    /// Words of each input's buffer, with --flow vct or saf: a worm's words after its head,
    /// its EOD included (2 to 4096) [default: 32].
    #[arg(long, value_name = "N")]
    pub buffer_words: Option<u64>,
    /// One clock for all switches, or the self-timed switch of the network-switch paper
    /// (Smit et al. 1991) that makes its own clock from its neighbours' (simulation only:
    /// it has a combinational loop).
    #[arg(
        long,
        value_parser = choice::<SwitchClocking>(),
        default_value = SwitchClocking::Synchronous.name()
    )]
    pub clocking: SwitchClocking,
}

/// The traffic a check runs.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Selection {
    /// Seed of the random traffic (and of the self-timed ring's wire delays) [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Cycles of random traffic after the directed cases [default: 20000]; of each
    /// switch's own clock in the self-timed ring [default: 2000].
    #[arg(long, value_name = "N")]
    cycles: Option<u64>,
    #[command(flatten)]
    fault: FaultArg,
}

/// The switch unit, as the registry lists it.
pub static KIND: Declared<Args, Selection, And<WaveArg, DelaysArg>> = Declared {
    name: "switch",
    aliases: &["kautz-switch"],
    about: "The switch of the network-switch paper (Smit et al. 1991): a (d+1)x(d+1) wormhole crossbar that consumes one route byte per hop and answers NACK when a worm's output is taken",
    docs: "docs/switch.md",
    unit: Switch::from_args,
    options: PhantomData,
};

/// The switch with validated parameters.
pub struct Switch(pub SwitchParams);

impl Switch {
    /// The unit the options describe, validated.
    fn from_args(args: Args, top: Option<&str>) -> Result<Box<dyn HardwareUnit>, InputError> {
        if args.flow == Flow::Nack && args.buffer_words.is_some() {
            return Err(input_error(
                "--buffer-words sizes the input buffers of --flow vct and saf; --flow nack has none",
            ));
        }
        if args.flow != Flow::Nack && args.clocking == SwitchClocking::SelfTimed {
            return Err(input_error(
                "--flow vct and saf are built synchronous; the self-timed switch is the paper's, --flow nack",
            ));
        }
        if args.flow != Flow::Nack && args.head_decision.is_some() {
            return Err(input_error(
                "--head-decision chooses for --flow nack; --flow vct and saf decide per output, at their buffers' heads",
            ));
        }
        if args.head_decode == HeadDecode::Registered {
            refuse_registered(&args)?;
        }
        let buffer_words = args.buffer_words.unwrap_or(DEFAULT_BUFFER_WORDS);
        let config = SwitchConfig::new(args.d, args.data_bits, args.arbiter)
            .and_then(|c| c.with_flow(args.flow, buffer_words))
            .and_then(|c| c.with_head_decode(args.head_decode))
            .map_err(input_error)?;
        Ok(Box::new(Switch(
            SwitchParams::new(config)
                .with_clocking(args.clocking)
                .with_head_decision(
                    args.head_decision
                        .unwrap_or(HeadDecision::default_for(args.head_decode)),
                )
                .with_top(top.unwrap_or(rtl_switch::DEFAULT_TOP)),
        )))
    }
}

/// The registered head decode is built for the synchronous bufferless switch only.
fn refuse_registered(args: &Args) -> Result<(), InputError> {
    if args.flow != Flow::Nack {
        return Err(input_error(
            "--head-decode registered is built for --flow nack; --flow vct and saf decide at their buffers' heads",
        ));
    }
    if args.clocking == SwitchClocking::SelfTimed {
        return Err(input_error(
            "--head-decode registered is built synchronous; the self-timed switch is the paper's lock-step one, --head-decode same-cycle",
        ));
    }
    Ok(())
}

impl HardwareUnit for Switch {
    /// `switch`, or `switch-vct` and `switch-saf` with buffers: synthesis reports tell the
    /// flow controls apart by it.
    fn name(&self) -> String {
        match self.0.config.flow() {
            Flow::Nack => "switch".to_string(),
            flow => format!("switch-{}", flow.name()),
        }
    }

    fn command_line(&self) -> String {
        let p = &self.0;
        let c = &p.config;
        let mut words = format!("switch --d {}", c.d());
        if c.data_bits() != DEFAULT_DATA_BITS {
            words += &format!(" --data-bits {}", c.data_bits());
        }
        if c.arbiter() != Arbiter::RoundRobin {
            words += " --arbiter fixed";
        }
        if p.head_decision != HeadDecision::default_for(c.head_decode()) && c.flow() == Flow::Nack {
            words += &format!(" --head-decision {}", p.head_decision.name());
        }
        if c.head_decode() != HeadDecode::SameCycle {
            words += &format!(" --head-decode {}", c.head_decode().name());
        }
        if c.flow() != Flow::Nack {
            words += &format!(" --flow {}", c.flow().name());
            if c.buffer_words() as u64 != DEFAULT_BUFFER_WORDS {
                words += &format!(" --buffer-words {}", c.buffer_words());
            }
        }
        if p.clocking == SwitchClocking::SelfTimed {
            words += " --clocking self-timed";
        }
        if p.top != rtl_switch::DEFAULT_TOP {
            words += &format!(" --top {}", p.top);
        }
        words
    }

    fn design(&self) -> Design {
        rtl_switch::design(&self.0)
    }

    fn timing(&self) -> String {
        match (self.0.clocking, self.0.config.head_decode()) {
            (SwitchClocking::Synchronous, HeadDecode::SameCycle) => "every output registered: a word one hop per clock, a head's grant registered in its own cycle",
            (SwitchClocking::Synchronous, HeadDecode::Registered) => "every input and output registered: a word two clocks per hop, a head's route byte decoded into a register and its grant decided in the next cycle",
            (SwitchClocking::SelfTimed, _) => "self-timed: node_clk made by a Muller-C rendezvous of the neighbours' clocks; for simulation (GHDL, Icarus Verilog), not for synthesis",
        }
        .to_string()
    }

    fn check(&self, matches: &ArgMatches, purpose: Purpose) -> Result<Box<dyn Check>, InputError> {
        let selection: Selection = read(matches)?;
        let seed = selection.seed.unwrap_or(1);
        let delays: Option<DelaysArg> = purpose.runs().then(|| read(matches)).transpose()?;
        let wave: Option<WaveArg> = purpose.runs().then(|| read(matches)).transpose()?;
        let self_timed = self.0.clocking == SwitchClocking::SelfTimed;
        if !self_timed {
            if delays.as_ref().is_some_and(|d| d.delays.is_some()) {
                return Err(input_error(
                    "--delays sets the wires between self-timed switches: add --clocking self-timed",
                ));
            }
            let fault = selection.fault.parse::<SwitchFault>("switch")?;
            let cycles = selection.cycles.unwrap_or(traffic::DEFAULT_CYCLES);
            let unit = SwitchUnit::new(self.0.clone().with_fault(fault), cycles, seed);
            let directed = unit.directed_cycles();
            let heading = format!(
                "{}: {directed} directed and {} random cycles (seed {seed}): {} cycles",
                unit.describe(),
                unit.cycle_count() - directed,
                unit.cycle_count()
            );
            return Ok(Box::new(FamilyCheck::stream(Box::new(unit), heading)));
        }
        if wave.is_some_and(|w| w.wave.is_some()) {
            return Err(input_error(
                "--wave applies to the synchronous switch, not to self-timed switches wired with delays",
            ));
        }
        if self.0.config.d() != 2 {
            return Err(input_error(format!(
                "the self-timed switch is checked in a bidirectional ring of three, which needs d = 2, got d = {}",
                self.0.config.d()
            )));
        }
        let fault = selection
            .fault
            .parse::<SelfTimedFault>("self-timed switch")?;
        let delays = delays.unwrap_or(DelaysArg { delays: None });
        let ring = Ring {
            params: self.0.clone().with_self_timed_fault(fault),
            cycles: selection.cycles.unwrap_or(ring::DEFAULT_CYCLES),
            seed,
            delays: delays.source()?,
        };
        let wires = ring.delays().map_err(|e| delays.refused(e))?;
        Ok(Box::new(RingCheck { ring, wires }))
    }
}

/// Three self-timed switches in a ring, their wires' delays drawn or read, checked against
/// three synchronous models.
struct RingCheck {
    ring: Ring,
    wires: Delays,
}

impl Check for RingCheck {
    fn heading(&self) -> String {
        format!(
            "{}: {} switch-cycles",
            self.ring.describe(),
            ring::SWITCHES as u64 * self.ring.cycles
        )
    }

    fn counted(&self) -> &'static str {
        "switch-cycles"
    }

    fn design(&self) -> Design {
        rtl_switch::design(&self.ring.params())
    }

    fn simulation(&self) -> Simulation {
        Simulation::DelayedWires
    }

    fn verify(&self, simulator: &dyn Simulator, run: Run) -> Result<Verdict, SimError> {
        Ok(self.ring.verify(simulator, &self.wires, run.shown)?.into())
    }

    /// Never called: a self-timed design refuses every style but the default
    /// ([`crate::units::restyled::Restyled::unit`]), which needs no restyling.
    fn with_reset(self: Box<Self>, _style: ResetStyle) -> Box<dyn Check> {
        unreachable!("a self-timed design takes the default reset style only")
    }

    fn testbench(&self, _languages: &[Language]) -> Result<Testbench, ExportError> {
        Err(input_error(
            "the self-timed switch is checked as a ring of three with wire delays (kautzgen verify switch --clocking self-timed), which has no exported testbench: export the synchronous switch",
        )
        .into())
    }
}
use std::marker::PhantomData;
