//! The hardware units, as the commands that build a design name them. `generate`,
//! `verify`, `synth` and `prove` take a unit as a subcommand with its own parameters
//! (`kautzgen generate ldi --m 18 --s 3 --out DIR`); without one they build the Kautz route
//! generator from `--d` and `--k`, so `kautzgen generate --d 4 --k 5 --out DIR` keeps its
//! meaning.

use crate::cli::input_error;
use crate::cli::unit_options::refuse_foreign;
use crate::emit::names::{Language, legalise, name_design};
use crate::network::switch::{Arbiter, DEFAULT_DATA_BITS as SWITCH_DATA_BITS, SwitchConfig};
use crate::routing::torus::Algorithm;
use crate::rtl::ir::Design;
use crate::rtl::kautz_route::{self, Arch, RouteGenParams};
use crate::rtl::kautz_route::{parallel, pipelined};
use crate::rtl::ldi_units::{self, DEFAULT_DATA_BITS, LdiUnitKind, LdiUnitParams};
use crate::rtl::mrns_path_gen::{self, MrnsPathGenParams};
use crate::rtl::network::router::{self, RouterParams};
use crate::rtl::network::switch::{self, SwitchClocking, SwitchParams};
use crate::rtl::network::whole::{self, NetworkParams};
use crate::rtl::torus_router::{self, TorusRouterParams};
use crate::topology::mrns::Mrns;
use clap::{Subcommand, ValueEnum};

/// A unit named on the command line, with its parameters as typed.
#[derive(Debug, Clone, Subcommand)]
pub enum UnitCommand {
    /// The route generator for K(d,k) of the route-generator paper (Smit et al. 1991): the d
    /// node-disjoint routes, shortest first (the default unit).
    #[command(alias = "kautz-route-gen")]
    Kautz(KautzArgs),
    /// LDI(M,S) of Melhem's LDI paper: next-hop units (Theorem 3, two-hop, shortest), switch
    /// settings as logic or ROM, and a crossbar that applies them.
    Ldi(LdiArgs),
    /// MRNS (generalised hypercube) of Choi and Chung's MRNS paper: the generator of the sum
    /// (m_i - 1) node-disjoint paths between two nodes, one per request.
    #[command(alias = "mrns-path-gen")]
    Mrns(MrnsArgs),
    /// The routing function of one node of a k-ary n-cube, from Demaine and Srinivas's k-ary
    /// n-cube paper (e-cube, double e-cube, west-first, direction-first), with a mask of
    /// faulty or busy links.
    Torus(TorusArgs),
    /// The switch of the network-switch paper (Smit et al. 1991): a (d+1)x(d+1) wormhole
    /// crossbar that consumes one route byte per hop and answers NACK when a worm's output is
    /// taken.
    #[command(alias = "kautz-switch")]
    Switch(SwitchArgs),
    /// The router of the network-switch paper (Smit et al. 1991) for a node of K(d,k): the
    /// message buffer, the route generator beside it, one attempt per NACK over the d
    /// node-disjoint routes, and the receiver.
    #[command(alias = "kautz-router")]
    Router(RouterArgs),
    /// A whole network on K(d,k) as the network-switch paper (Smit et al. 1991) builds it: at
    /// every node a switch and a router with its route generator, the links wired by the
    /// Kautz arcs, every node's processor side and faults as ports.
    #[command(alias = "kautz-network")]
    Network(NetworkArgs),
}

/// The Kautz digraph K(d,k) of the route generator.
#[derive(Debug, Clone, clap::Args)]
pub struct KautzArgs {
    /// Degree: letters are 0..=d (1 to 255).
    #[arg(long)]
    pub d: u64,
    /// Word length and diameter (1 to 64).
    #[arg(long)]
    pub k: u64,
}

/// --d and --k given to the command itself, for the default unit.
#[derive(Debug, Clone, clap::Args)]
pub struct DefaultKautzArgs {
    /// Degree of K(d,k), for the default unit, the Kautz route generator.
    #[arg(long)]
    pub d: Option<u64>,
    /// Word length and diameter of K(d,k), for the default unit.
    #[arg(long)]
    pub k: Option<u64>,
}

#[derive(Debug, Clone, clap::Args)]
pub struct LdiArgs {
    /// Which unit of the network.
    #[arg(long, value_enum, default_value_t = LdiUnitKind::Theorem3)]
    pub kind: LdiUnitKind,
    /// Number of nodes M (more than S).
    #[arg(long)]
    pub m: u64,
    /// Out-degree S (at least 2).
    #[arg(long)]
    pub s: u64,
    /// Register the outputs: one clock edge from inputs to outputs.
    #[arg(long)]
    pub registered: bool,
    /// Bits of data per crossbar port (crossbar only).
    #[arg(long, default_value_t = DEFAULT_DATA_BITS)]
    pub data_bits: u32,
}

#[derive(Debug, Clone, clap::Args)]
pub struct MrnsArgs {
    /// Radices, most significant dimension first: 2,3,3,4 is Z2xZ3xZ3xZ4 (1 to 16
    /// dimensions, radices 2 to 256).
    #[arg(long)]
    pub radices: String,
}

#[derive(Debug, Clone, clap::Args)]
pub struct TorusArgs {
    /// Ring size: nodes per dimension (2 to 65536).
    #[arg(long)]
    pub k: u64,
    /// Number of dimensions (1 to 32).
    #[arg(long)]
    pub n: u64,
    /// Routing algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::ECube)]
    pub algo: AlgorithmArg,
    /// Register the outputs: one clock edge from inputs to outputs.
    #[arg(long)]
    pub registered: bool,
}

#[derive(Debug, Clone, clap::Args)]
pub struct SwitchArgs {
    /// Network links each way (1 to 15); port 0 is the local router, so the switch is
    /// (d+1)x(d+1).
    #[arg(long)]
    pub d: u64,
    /// Data bits per link word (1 to 64, and enough to write the port numbers 0..=d).
    #[arg(long, default_value_t = SWITCH_DATA_BITS as u64)]
    pub data_bits: u64,
    /// Which head wins an output that several ask for in one cycle.
    #[arg(long, value_enum, default_value_t = Arbiter::RoundRobin)]
    pub arbiter: Arbiter,
    /// One clock for all switches, or the self-timed switch of the network-switch paper (Smit
    /// et al. 1991) that makes its own clock from its neighbours' (simulation only: it has a
    /// combinational loop).
    #[arg(long, value_enum, default_value_t = SwitchClocking::Synchronous)]
    pub clocking: SwitchClocking,
}

#[derive(Debug, Clone, clap::Args)]
pub struct RouterArgs {
    /// Degree of K(d,k): letters are 0..=d (1 to 255).
    #[arg(long)]
    pub d: u64,
    /// Word length of K(d,k) (1 to 64).
    #[arg(long)]
    pub k: u64,
    /// Bytes the message buffer holds, the longest message (1 to 255).
    #[arg(long, default_value_t = router::DEFAULT_MAX_BYTES as u64)]
    pub max_bytes: u64,
}

#[derive(Debug, Clone, clap::Args)]
pub struct NetworkArgs {
    /// Degree of K(d,k): letters are 0..=d (1 to 15, the switch's).
    #[arg(long)]
    pub d: u64,
    /// Word length of K(d,k); the network has at most 1024 nodes.
    #[arg(long)]
    pub k: u64,
    /// Bytes each router's message buffer holds, the longest message (1 to 255).
    #[arg(long, default_value_t = router::DEFAULT_MAX_BYTES as u64)]
    pub max_bytes: u64,
    /// Which head wins a switch output that several ask for in one cycle.
    #[arg(long, value_enum, default_value_t = Arbiter::RoundRobin)]
    pub arbiter: Arbiter,
    /// One clock for the whole network, or at every node the self-timed switch of the
    /// network-switch paper (Smit et al. 1991), which makes the node's clock from its
    /// neighbours' (simulation only: it has combinational loops).
    #[arg(long, value_enum, default_value_t = SwitchClocking::Synchronous)]
    pub clocking: SwitchClocking,
}

/// The torus routing algorithms by their command-line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    #[value(name = "e-cube")]
    ECube,
    #[value(name = "double-e-cube")]
    DoubleECube,
    #[value(name = "west-first")]
    WestFirst,
    #[value(name = "direction-first")]
    DirectionFirst,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(arg: AlgorithmArg) -> Algorithm {
        match arg {
            AlgorithmArg::ECube => Algorithm::ECube,
            AlgorithmArg::DoubleECube => Algorithm::DoubleECube,
            AlgorithmArg::WestFirst => Algorithm::WestFirst,
            AlgorithmArg::DirectionFirst => Algorithm::DirectionFirst,
        }
    }
}

/// The unit a command builds, as typed: a unit subcommand, or `--d`/`--k` for the default,
/// and the top's name.
#[derive(Debug, Clone, clap::Args)]
pub struct UnitSelection {
    #[command(subcommand)]
    pub unit: Option<UnitCommand>,
    #[command(flatten)]
    pub kautz: DefaultKautzArgs,
    /// Name of the top module and entity; submodules are prefixed with it [default: the
    /// unit's, such as kautz_route_gen].
    #[arg(long, value_name = "NAME", global = true)]
    pub top: Option<String>,
    /// Kautz route generator: the route-generator paper's design (Smit et al. 1991), one
    /// overlap or letter per clock, one route per clock with the same ports, or the pipelined
    /// engine kautz_route_pipe, a route set per clock [default: faithful].
    #[arg(long, value_enum, global = true)]
    pub arch: Option<Arch>,
}

impl UnitSelection {
    /// The unit selected for `command`, validated.
    pub fn resolve(&self, command: &str) -> anyhow::Result<Unit> {
        let unit = Unit::from_args(self.unit.as_ref(), &self.kautz, self.top.as_deref())?;
        let unit = match (unit, self.arch) {
            (unit, None) => unit,
            (Unit::Kautz(params), Some(arch)) => {
                let top = self.top.as_deref().unwrap_or(arch.default_top());
                Unit::Kautz(RouteGenParams {
                    top: top.to_string(),
                    ..params.with_arch(arch)
                })
            }
            (unit, Some(_)) => {
                refuse_foreign(command, &unit, "arch", true)?;
                unit
            }
        };
        if let Some(top) = &self.top {
            check_ports_keep_names(&unit.design(), top)?;
        }
        Ok(unit)
    }
}

/// A unit with validated parameters, ready to be built.
#[derive(Debug, Clone)]
pub enum Unit {
    Kautz(RouteGenParams),
    Ldi(LdiUnitParams),
    Mrns(MrnsPathGenParams),
    Torus(TorusRouterParams),
    Switch(SwitchParams),
    Router(RouterParams),
    Network(NetworkParams),
}

impl Unit {
    /// The unit the command line names: `command`, or the route generator of `--d`/`--k`
    /// when there is none; its top is `top` or the unit's default. Every problem is the
    /// user's input error.
    pub fn from_args(
        command: Option<&UnitCommand>,
        default: &DefaultKautzArgs,
        top: Option<&str>,
    ) -> anyhow::Result<Unit> {
        if let Some(top) = top {
            check_top_name(top)?;
        }
        let kautz = |d: u64, k: u64| {
            let top = top.unwrap_or(kautz_route::DEFAULT_TOP);
            RouteGenParams::new(d, k, top)
                .map(Unit::Kautz)
                .map_err(input_error)
        };
        let command = match command {
            None => {
                return match (default.d, default.k) {
                    (Some(d), Some(k)) => kautz(d, k),
                    (None, None) => Err(input_error(anyhow::anyhow!(
                        "name a unit (kautz, ldi, mrns, torus, switch, router, network) or give --d and --k for the Kautz route generator"
                    ))),
                    _ => Err(input_error(anyhow::anyhow!(
                        "the route generator needs --d and --k (the Kautz digraph K(d,k))"
                    ))),
                };
            }
            Some(command) => command,
        };
        if default.d.is_some() || default.k.is_some() {
            return Err(input_error(anyhow::anyhow!(
                "--d and --k before the unit's name belong to the default unit; give the unit's own parameters after its name"
            )));
        }
        match command {
            UnitCommand::Kautz(args) => kautz(args.d, args.k),
            UnitCommand::Ldi(args) => {
                let mut params = LdiUnitParams::new(args.kind, args.m, args.s)
                    .and_then(|p| p.with_data_bits(args.data_bits))
                    .map_err(input_error)?
                    .registered(args.registered);
                if args.kind != LdiUnitKind::Crossbar && args.data_bits != DEFAULT_DATA_BITS {
                    return Err(input_error(anyhow::anyhow!(
                        "--data-bits sizes the crossbar's data ports; the {} unit has none",
                        args.kind.name()
                    )));
                }
                if let Some(top) = top {
                    params = params.with_top(top);
                }
                Ok(Unit::Ldi(params))
            }
            UnitCommand::Mrns(args) => {
                let network = Mrns::parse(&args.radices).map_err(input_error)?;
                let params = MrnsPathGenParams::for_network(network).map_err(input_error)?;
                Ok(Unit::Mrns(
                    params.with_top(top.unwrap_or(mrns_path_gen::DEFAULT_TOP)),
                ))
            }
            UnitCommand::Torus(args) => TorusRouterParams::new(
                args.k,
                args.n,
                args.algo.into(),
                args.registered,
                top.unwrap_or(torus_router::DEFAULT_TOP),
            )
            .map(Unit::Torus)
            .map_err(input_error),
            UnitCommand::Switch(args) => {
                let config =
                    SwitchConfig::new(args.d, args.data_bits, args.arbiter).map_err(input_error)?;
                Ok(Unit::Switch(
                    SwitchParams::new(config)
                        .with_clocking(args.clocking)
                        .with_top(top.unwrap_or(switch::DEFAULT_TOP)),
                ))
            }
            UnitCommand::Router(args) => RouterParams::new(
                args.d,
                args.k,
                args.max_bytes,
                top.unwrap_or(router::DEFAULT_TOP),
            )
            .map(Unit::Router)
            .map_err(input_error),
            UnitCommand::Network(args) => NetworkParams::new(
                args.d,
                args.k,
                args.max_bytes,
                args.arbiter,
                top.unwrap_or(whole::DEFAULT_TOP),
            )
            .map(|params| Unit::Network(params.with_clocking(args.clocking)))
            .map_err(input_error),
        }
    }

    /// The unit's hardware.
    pub fn design(&self) -> Design {
        match self {
            Unit::Kautz(params) => kautz_route::design(params),
            Unit::Ldi(params) => ldi_units::design(params),
            Unit::Mrns(params) => mrns_path_gen::design(params),
            Unit::Torus(params) => torus_router::design(params),
            Unit::Switch(params) => switch::design(params),
            Unit::Router(params) => router::design(params),
            Unit::Network(params) => whole::design(params),
        }
    }

    /// The unit's name in reports: `kautz-route-gen`, `ldi-theorem3`, `mrns-path-gen`,
    /// `torus-e-cube`.
    pub fn name(&self) -> String {
        match self {
            Unit::Kautz(params) => match params.arch {
                Arch::Faithful => "kautz-route-gen".to_string(),
                Arch::Parallel => "kautz-route-gen-parallel".to_string(),
                Arch::Pipelined => "kautz-route-pipe".to_string(),
            },
            Unit::Ldi(params) => format!("ldi-{}", params.kind().name()),
            Unit::Mrns(_) => "mrns-path-gen".to_string(),
            Unit::Torus(params) => format!("torus-{}", params.algorithm().name()),
            Unit::Switch(_) => "switch".to_string(),
            Unit::Router(_) => "router".to_string(),
            Unit::Network(_) => "network".to_string(),
        }
    }

    /// The unit and its parameters as they would be typed after the command's name.
    pub fn command_line(&self) -> String {
        let registered = |r: bool| if r { " --registered" } else { "" };
        let (words, top, default_top) = match self {
            Unit::Kautz(p) => (
                match p.arch {
                    Arch::Faithful => format!("--d {} --k {}", p.d(), p.k()),
                    arch => format!("--d {} --k {} --arch {}", p.d(), p.k(), arch.name()),
                },
                p.top.clone(),
                p.arch.default_top().to_string(),
            ),
            Unit::Ldi(p) => {
                let data = if p.kind() == LdiUnitKind::Crossbar {
                    format!(" --data-bits {}", p.data_bits())
                } else {
                    String::new()
                };
                (
                    format!(
                        "ldi --kind {} --m {} --s {}{data}{}",
                        p.kind().name(),
                        p.ldi().m(),
                        p.ldi().s(),
                        registered(p.is_registered())
                    ),
                    p.top().to_string(),
                    p.kind().default_top(),
                )
            }
            Unit::Mrns(p) => {
                let radices: Vec<String> = p
                    .network()
                    .written_radices()
                    .iter()
                    .map(usize::to_string)
                    .collect();
                (
                    format!("mrns --radices {}", radices.join(",")),
                    p.top().to_string(),
                    mrns_path_gen::DEFAULT_TOP.to_string(),
                )
            }
            Unit::Torus(p) => (
                format!(
                    "torus --k {} --n {} --algo {}{}",
                    p.k(),
                    p.n(),
                    p.algorithm().name(),
                    registered(p.registered)
                ),
                p.top.clone(),
                torus_router::DEFAULT_TOP.to_string(),
            ),
            Unit::Switch(p) => {
                let c = &p.config;
                let mut words = format!("switch --d {}", c.d());
                if c.data_bits() != SWITCH_DATA_BITS {
                    words += &format!(" --data-bits {}", c.data_bits());
                }
                if c.arbiter() != Arbiter::RoundRobin {
                    words += " --arbiter fixed";
                }
                if p.clocking == SwitchClocking::SelfTimed {
                    words += " --clocking self-timed";
                }
                (words, p.top.clone(), switch::DEFAULT_TOP.to_string())
            }
            Unit::Router(p) => {
                let mut words = format!("router --d {} --k {}", p.graph.d(), p.graph.k());
                if p.max_bytes != router::DEFAULT_MAX_BYTES {
                    words += &format!(" --max-bytes {}", p.max_bytes);
                }
                (words, p.top.clone(), router::DEFAULT_TOP.to_string())
            }
            Unit::Network(p) => {
                let g = p.graph();
                let mut words = format!("network --d {} --k {}", g.d(), g.k());
                if p.router.max_bytes != router::DEFAULT_MAX_BYTES {
                    words += &format!(" --max-bytes {}", p.router.max_bytes);
                }
                if p.arbiter != Arbiter::RoundRobin {
                    words += " --arbiter fixed";
                }
                if p.clocking == SwitchClocking::SelfTimed {
                    words += " --clocking self-timed";
                }
                (words, p.top.clone(), whole::DEFAULT_TOP.to_string())
            }
        };
        if top == default_top {
            words
        } else {
            format!("{words} --top {top}")
        }
    }

    /// What the unit promises about its timing, for the line `generate` prints.
    pub fn timing(&self) -> String {
        let latency = |edges: u32| match edges {
            0 => "combinational".to_string(),
            1 => "outputs registered: 1 clock edge from inputs to outputs".to_string(),
            n => format!("{n} clock edges from inputs to outputs"),
        };
        match self {
            Unit::Kautz(p) => match p.arch {
                Arch::Faithful => format!(
                    "each route_valid or done follows init or next_route within {} cycles",
                    kautz_route::faithful::cycle_bound(p.d(), p.k())
                ),
                Arch::Parallel => format!(
                    "the first route_valid or done {} cycles after init, each further one the cycle after next_route",
                    parallel::CYCLE_BOUND
                ),
                Arch::Pipelined => format!(
                    "a pair accepted every clock; its route set on the outputs {} clock edges later unless out_ready stalls it",
                    pipelined::latency(p.d())
                ),
            },
            Unit::Ldi(p) => latency(u32::from(p.is_registered())),
            Unit::Mrns(p) => format!(
                "each path_valid or done follows init or next_path within {} cycles",
                p.cycle_bound()
            ),
            Unit::Torus(p) => latency(p.latency()),
            Unit::Switch(p) => match p.clocking {
                SwitchClocking::Synchronous => "every output registered: a word one hop per clock, a head's grant registered in its own cycle".to_string(),
                SwitchClocking::SelfTimed => "self-timed: node_clk made by a Muller-C rendezvous of the neighbours' clocks; for simulation (GHDL, Icarus Verilog), not for synthesis".to_string(),
            },
            Unit::Router(p) => format!(
                "every output registered: route i taken B = {} cycles after init or next_route (or at the NACK, if later), its head the cycle after",
                p.route_cycles()
            ),
            Unit::Network(p) => match p.clocking {
                SwitchClocking::Synchronous => format!(
                    "every node's outputs registered: a word one hop per clock, a route taken B = {} cycles after init or next_route",
                    p.router.route_cycles()
                ),
                SwitchClocking::SelfTimed => format!(
                    "self-timed: every node on its own node_clk, made by a Muller-C rendezvous of its neighbours' clocks, a word one hop per node clock, a route taken B = {} node clocks after init or next_route; for simulation (GHDL, Icarus Verilog), not for synthesis",
                    p.router.route_cycles()
                ),
            },
        }
    }
}

/// The top's port names are part of the interface too. Module names are claimed before
/// port names, so a `--top` equal to a port name (`--top route`), or one that gives a
/// submodule (`<top>_<block>`) a port's name, would have the port renamed: refused.
fn check_ports_keep_names(design: &Design, top: &str) -> anyhow::Result<()> {
    for language in [Language::Verilog, Language::Vhdl] {
        let names = name_design(design, language);
        let module = design.top();
        let local = names.of(module);
        for (id, port) in module.ports() {
            let emitted = &local.signals[id.0 as usize];
            if *emitted != port.name {
                return Err(input_error(anyhow::anyhow!(
                    "--top '{top}' would rename the top's port '{}' to '{emitted}' in {language}: module names and port names share one namespace; choose another top name",
                    port.name
                )));
            }
        }
    }
    Ok(())
}

/// The top name is part of the interface, so it is refused rather than repaired.
pub fn check_top_name(top: &str) -> anyhow::Result<()> {
    for language in [Language::Verilog, Language::Vhdl] {
        let legal = legalise(top, language);
        if legal != top {
            return Err(input_error(anyhow::anyhow!(
                "--top '{top}' is not a legal {language} name (it would have to be '{legal}')"
            )));
        }
    }
    Ok(())
}
