//! A whole network as the network-switch paper (Smit et al. 1991) builds it, on any
//! topology of the registry (`--topology`, docs/topologies.md): at every node a switch and a
//! router with its route generator (K(d,k)) or route table (every other topology), the links
//! wired as the topology says. Checked message by message against the network model
//! ([`traffic`]): the model's
//! run drives the nodes' processor ports, and every message's verdict, attempts, cycles
//! and bytes must come out of the hardware as out of the model; the self-timed network
//! with a delay on every wire between its nodes.

pub mod traffic;

use crate::choice::Choice;
use crate::emit::names::Language;
use crate::emit::testbench::Testbench;
use crate::fabric::switch::{Arbiter, DEFAULT_DATA_BITS, Flow};
use crate::input::{InputError, input_error};
use crate::rtl::ir::{Design, ResetStyle};
use crate::rtl::network::packed::{self, PortForm};
use crate::rtl::network::router::DEFAULT_MAX_BYTES;
use crate::rtl::network::switch::SwitchClocking;
use crate::rtl::network::whole::{self, NetworkFault, NetworkParams};
use crate::sim::bits::Bits;
use crate::sim::delays::{Delays, LinkWires};
use crate::sim::{SimError, Simulator, export};
use crate::topologies::Built;
use crate::units::check::{Check, ExportError, Run, Simulation, Verdict};
use crate::units::choice_arg::choice;
use crate::units::options::{And, DelaysArg, FaultArg, InterfaceArg, WaveArg, read};
use crate::units::topology_args::DEFAULT_TOPOLOGY;
use crate::units::topology_args::TopologyArgs;
use crate::units::{Declared, HardwareUnit, Purpose};
use clap::ArgMatches;
use traffic::NetworkUnit;

/// The network's topology, buffers, arbiters and clocking.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Args {
    /// The topology (at most 1024 nodes) and its options.
    #[command(flatten)]
    pub topology: TopologyArgs,
    /// Words each router's message buffer holds, the longest message (1 to 255): bytes
    /// at the default --data-bits 8.
    #[arg(long, default_value_t = DEFAULT_MAX_BYTES as u64)]
    pub max_bytes: u64,
    /// Bits of every link word and of the processors' data words: 8, 16, 32 or 64.
    #[arg(long, default_value_t = DEFAULT_DATA_BITS as u64)]
    pub data_bits: u64,
    /// Which head wins a switch output that several ask for in one cycle.
    #[arg(long, value_parser = choice::<Arbiter>(), default_value = Arbiter::RoundRobin.name())]
    pub arbiter: Arbiter,
    /// The switches' flow control (docs/flow-control.md): with vct and saf, buffers hold
    /// the longest worm and the routers acknowledge every message.
    #[arg(long, value_parser = choice::<Flow>(), default_value = Flow::Nack.name())]
    pub flow: Flow,
    /// One clock for the whole network, or at every node the self-timed switch of the
    /// network-switch paper (Smit et al. 1991), which makes the node's clock from its
    /// neighbours' (simulation only: it has combinational loops).
    #[arg(
        long,
        value_parser = choice::<SwitchClocking>(),
        default_value = SwitchClocking::Synchronous.name()
    )]
    pub clocking: SwitchClocking,
    #[command(flatten)]
    pub interface: InterfaceArg,
    /// The top's ports: a group per node (n012_tx_valid, ...), or one vector per signal
    /// with node i at bits [i*W +: W] in the documented node order (docs/network.md).
    #[arg(long, value_parser = choice::<PortForm>(), default_value = PortForm::Flat.name())]
    pub ports: PortForm,
}

/// The traffic a check runs.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Selection {
    /// Seed of the traffic, of the faulty nodes and of the self-timed wires' delays
    /// [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Cycles of injection, then the drain [default: 2000].
    #[arg(long, value_name = "N")]
    cycles: Option<u64>,
    /// Messages per healthy node per cycle, 0 to 1 [default: 0.01].
    #[arg(long, value_name = "R")]
    rate: Option<f64>,
    /// Faulty nodes, drawn by --seed among all [default: 0].
    #[arg(long, value_name = "F")]
    random_faulty_nodes: Option<u64>,
    #[command(flatten)]
    fault: FaultArg,
    /// With --interface axis: the probability that a node's m_axis sink is ready in a
    /// cycle, drawn from --seed [default: 0.5].
    #[arg(long, value_name = "P")]
    rx_ready: Option<f64>,
}

/// The network unit, as the registry lists it.
pub static KIND: Declared<Args, Selection, And<WaveArg, DelaysArg>> = Declared {
    name: "network",
    aliases: &["kautz-network"],
    about: "A whole network as the network-switch paper (Smit et al. 1991) builds it, on any topology (K(d,k) by default): at every node a switch and a router with its route generator (K(d,k)) or route table, the links wired by the topology, every node's processor side and faults as ports",
    docs: "docs/network.md",
    unit: Network::from_args,
    options: PhantomData,
};

/// The network with validated parameters, the topology's options as given, and the form
/// of its top's ports.
pub struct Network(pub NetworkParams, TopologyArgs, PortForm);

impl Network {
    /// The unit the options describe, validated.
    fn from_args(args: Args, top: Option<&str>) -> Result<Box<dyn HardwareUnit>, InputError> {
        let top = top.unwrap_or(args.topology.kind.network_top());
        let params = params(&args, top)?;
        let network = Network(params, args.topology, args.ports);
        Ok(Box::new(network) as Box<dyn HardwareUnit>)
    }
}

/// The network the options describe under the top `top`, validated: what `generate
/// network` builds, and what `kautzgen board` tests.
pub fn params(args: &Args, top: &str) -> Result<NetworkParams, InputError> {
    let built = args.topology.build().map_err(input_error)?;
    let params = match built {
        Built::Kautz(graph) => NetworkParams::new(
            graph.d() as u64,
            graph.k() as u64,
            args.max_bytes,
            args.arbiter,
            top,
        ),
        Built::Table(plan) => NetworkParams::table(plan, args.max_bytes, args.arbiter, top),
    }
    .and_then(|params| params.with_data_bits(args.data_bits))
    .map_err(input_error)?;
    if args.flow != Flow::Nack && args.data_bits == 64 {
        return Err(input_error(crate::units::router::BUFFERED_WORDS));
    }
    if args.clocking == SwitchClocking::SelfTimed && params.graph().is_none() {
        return Err(input_error(
            "--clocking self-timed builds K(d,k) networks only; the other topologies are synchronous",
        ));
    }
    if args.clocking == SwitchClocking::SelfTimed && args.flow != Flow::Nack {
        return Err(input_error(
            "--flow vct and saf are built synchronous; the self-timed switch is the paper's, --flow nack",
        ));
    }
    if args.flow != Flow::Nack && args.arbiter == Arbiter::Fixed {
        return Err(input_error(format!(
            "--flow {} needs round-robin switches: a fixed arbiter can keep a buffered worm waiting for ever (docs/flow-control.md)",
            args.flow.name()
        )));
    }
    if args.clocking == SwitchClocking::SelfTimed && args.ports == PortForm::Packed {
        return Err(input_error(
            "--ports packed packs the synchronous network's top; the self-timed network is checked node by node, without its top: leave --ports at flat",
        ));
    }
    let params = params.with_flow(args.flow).with_clocking(args.clocking);
    match args.interface.fifo(args.max_bytes)? {
        None => Ok(params),
        Some(rx_bytes) => params.with_axis(rx_bytes).map_err(input_error),
    }
}

impl HardwareUnit for Network {
    /// `network` on K(d,k), else its top's name (`debruijn-network`, `torus-network`, ...),
    /// and its flow control unless nack (`network-vct`): synthesis reports tell them apart
    /// by it.
    fn name(&self) -> String {
        let base = match self.1.kind.name() {
            DEFAULT_TOPOLOGY => "network".to_string(),
            _ => self.1.kind.network_top().replace('_', "-"),
        };
        match self.0.flow {
            Flow::Nack => base,
            flow => format!("{base}-{}", flow.name()),
        }
    }

    fn command_line(&self) -> String {
        let p = &self.0;
        let mut words = format!("network {}", self.1.command_line());
        if p.router.max_bytes != DEFAULT_MAX_BYTES {
            words += &format!(" --max-bytes {}", p.router.max_bytes);
        }
        if p.router.data_bits != DEFAULT_DATA_BITS {
            words += &format!(" --data-bits {}", p.router.data_bits);
        }
        if p.arbiter != Arbiter::RoundRobin {
            words += " --arbiter fixed";
        }
        if p.flow != Flow::Nack {
            words += &format!(" --flow {}", p.flow.name());
        }
        if p.clocking == SwitchClocking::SelfTimed {
            words += " --clocking self-timed";
        }
        if let Some(rx_bytes) = p.axis {
            words += &format!(" --interface axis --rx-bytes {rx_bytes}");
        }
        if self.2 == PortForm::Packed {
            words += " --ports packed";
        }
        if p.top != self.1.kind.network_top() {
            words += &format!(" --top {}", p.top);
        }
        words
    }

    fn design(&self) -> Design {
        match self.2 {
            PortForm::Flat => whole::design(&self.0),
            PortForm::Packed => packed::pack(whole::design(&self.0), &self.0),
        }
    }

    fn timing(&self) -> String {
        let cycles = self.0.router.route_cycles();
        match self.0.clocking {
            SwitchClocking::Synchronous => format!(
                "every node's outputs registered: a word one hop per clock, a route taken B = {cycles} cycles after init or next_route"
            ),
            SwitchClocking::SelfTimed => format!(
                "self-timed: every node on its own node_clk, made by a Muller-C rendezvous of its neighbours' clocks, a word one hop per node clock, a route taken B = {cycles} node clocks after init or next_route; for simulation (GHDL, Icarus Verilog), not for synthesis"
            ),
        }
    }

    fn check(&self, matches: &ArgMatches, purpose: Purpose) -> Result<Box<dyn Check>, InputError> {
        let selection: Selection = read(matches)?;
        let delays: Option<DelaysArg> = purpose.runs().then(|| read(matches)).transpose()?;
        let wave: Option<WaveArg> = purpose.runs().then(|| read(matches)).transpose()?;
        let self_timed = self.0.clocking == SwitchClocking::SelfTimed;
        let delays = delays.unwrap_or(DelaysArg { delays: None });
        if delays.delays.is_some() && !self_timed {
            return Err(input_error(
                "--delays sets the wires between self-timed switches: add --clocking self-timed",
            ));
        }
        if self_timed && wave.is_some_and(|w| w.wave.is_some()) {
            return Err(input_error(
                "--wave applies to the synchronous network, not to self-timed switches wired with delays",
            ));
        }
        let unit = self.traffic(&selection)?;
        if !self_timed {
            return Ok(Box::new(NetworkCheck { unit }));
        }
        let source = delays.source()?;
        let names: Vec<LinkWires> = unit.links().into_iter().map(|l| l.names).collect();
        let seed = selection.seed.unwrap_or(1);
        let wires = source.delays(&names, seed).map_err(|e| delays.refused(e))?;
        let heading = format!("{} ({})", unit.describe(), source.describe());
        Ok(Box::new(SelfTimedCheck {
            unit,
            wires,
            heading,
        }))
    }
}

impl Network {
    /// The network with the fault asked for, under the traffic of `selection`; the model
    /// is run here.
    fn traffic(&self, selection: &Selection) -> Result<NetworkUnit, InputError> {
        let port_bits = self.0.router.address_bits();
        if port_bits > 64 {
            return Err(input_error(format!(
                "the network's node words are {port_bits} bits (k*W) and the testbench drives ports of at most 64 bits: verify a smaller K(d,k)"
            )));
        }
        let fault = selection.fault.parse::<NetworkFault>("network")?;
        let params = self.0.clone().with_fault(fault).map_err(input_error)?;
        if params.axis.is_none() && selection.rx_ready.is_some() {
            return Err(input_error(
                "--rx-ready drives the m_axis sinks of --interface axis; the plain network has none",
            ));
        }
        let mut unit = NetworkUnit::with_sinks(
            params,
            selection.rate.unwrap_or(traffic::DEFAULT_RATE),
            selection.cycles.unwrap_or(traffic::DEFAULT_CYCLES),
            selection.random_faulty_nodes.unwrap_or(0),
            selection.seed.unwrap_or(1),
            selection.rx_ready.unwrap_or(traffic::DEFAULT_RX_READY),
        )
        .map_err(input_error)?;
        unit.ports = self.2;
        if let Some((name, width)) = unit
            .design()
            .top()
            .ports()
            .map(|(_, s)| (&s.name, s.width))
            .find(|&(_, width)| width > 64)
        {
            return Err(input_error(format!(
                "the packed top's port {name} is {width} bits and the testbench drives and reads ports of at most 64 bits: verify --ports packed on a network of at most 8 nodes, or the flat form"
            )));
        }
        Ok(unit)
    }
}

/// The synchronous network, checked message by message.
struct NetworkCheck {
    unit: NetworkUnit,
}

/// What the masks of the network's exported vectors select.
const MASKED: &str = "the bits the model specifies in that cycle (a verdict's status and attempts only with res_valid, a byte's fields only with rx_valid, tx_ready only while the node hands over a message; with --interface axis: the status beat's data with its tvalid, a received word's tdata, tlast and tid in the cycle the sink takes it, s_axis_tready while the node offers a message)";

impl Check for NetworkCheck {
    fn heading(&self) -> String {
        self.unit.describe()
    }

    fn counted(&self) -> &'static str {
        "messages"
    }

    fn design(&self) -> Design {
        self.unit.design()
    }

    fn verify(&self, simulator: &dyn Simulator, run: Run) -> Result<Verdict, SimError> {
        Ok(self.unit.verify(simulator, run.shown, run.wave)?.into())
    }

    fn with_reset(mut self: Box<Self>, style: ResetStyle) -> Box<dyn Check> {
        self.unit.reset = style;
        self
    }

    /// Every output the model specifies in every cycle, each row's expected outputs then
    /// their masks.
    fn testbench(&self, languages: &[Language]) -> Result<Testbench, ExportError> {
        let design = self.unit.design();
        let rows = self.unit.checked_cycles(&design).into_iter().map(|c| {
            let values = c.outputs.iter().chain(&c.care);
            (c.inputs, values.map(|&v| Bits::from_u64(64, v)).collect())
        });
        let describe = self.unit.describe();
        Ok(export::masked_stream(
            &design, &describe, rows, MASKED, languages,
        )?)
    }
}

/// The self-timed network, its nodes wired with delays, checked message by message.
struct SelfTimedCheck {
    unit: NetworkUnit,
    wires: Delays,
    heading: String,
}

impl Check for SelfTimedCheck {
    fn heading(&self) -> String {
        self.heading.clone()
    }

    fn counted(&self) -> &'static str {
        "messages"
    }

    fn design(&self) -> Design {
        self.unit.design()
    }

    fn simulation(&self) -> Simulation {
        Simulation::DelayedWires
    }

    fn verify(&self, simulator: &dyn Simulator, run: Run) -> Result<Verdict, SimError> {
        Ok(self
            .unit
            .verify_self_timed(simulator, &self.wires, run.shown)?
            .into())
    }

    /// Never called: a self-timed design refuses every style but the default
    /// ([`crate::units::restyled::Restyled::unit`]), which needs no restyling.
    fn with_reset(self: Box<Self>, _style: ResetStyle) -> Box<dyn Check> {
        unreachable!("a self-timed design takes the default reset style only")
    }

    fn testbench(&self, _languages: &[Language]) -> Result<Testbench, ExportError> {
        Err(input_error(
            "the self-timed network has no exported testbench (its nodes run on clocks of their own): export the synchronous network",
        )
        .into())
    }
}
use std::marker::PhantomData;
