//! The router of the network-switch paper (Smit et al. 1991) for a node of K(d,k): the
//! message buffer, the route generator beside it, one attempt per NACK over the d
//! node-disjoint routes, and the receiver; behind buffered switches (`--flow vct|saf`) the
//! router of acknowledged delivery (docs/flow-control.md). A stream unit checked in closed
//! loop with its cycle model ([`traffic`]).

pub mod traffic;

use crate::choice::Choice;
use crate::fabric::switch::{DEFAULT_DATA_BITS, Flow};
use crate::input::{InputError, input_error};
use crate::rtl::ir::Design;
use crate::rtl::network::axis;
use crate::rtl::network::router::{
    self as rtl_router, DEFAULT_MAX_BYTES, RouterFault, RouterParams,
};
use crate::rtl::network::router_axis;
use crate::topology::kautz::Kautz;
use crate::units::check::{Check, FamilyCheck};
use crate::units::choice_arg::choice;
use crate::units::options::{FaultArg, InterfaceArg, WaveArg, read};
use crate::units::{Declared, HardwareUnit, Purpose};
use clap::ArgMatches;
use traffic::RouterUnit;

/// The node's network and its buffer.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Args {
    /// Degree of K(d,k): letters are 0..=d (1 to 255).
    #[arg(long)]
    pub d: u64,
    /// Word length of K(d,k) (1 to 64).
    #[arg(long)]
    pub k: u64,
    /// Words the message buffer holds, the longest message (1 to 255): bytes at the
    /// default --data-bits 8.
    #[arg(long, default_value_t = DEFAULT_MAX_BYTES as u64)]
    pub max_bytes: u64,
    /// Bits of a link word and of the processor's data words: 8, 16, 32 or 64.
    #[arg(long, default_value_t = DEFAULT_DATA_BITS as u64)]
    pub data_bits: u64,
    /// The flow control of the switches it sits behind (docs/flow-control.md): with vct
    /// and saf it acknowledges every message and waits for ACKs
    #[arg(long, value_parser = choice::<Flow>(), default_value = Flow::Nack.name())]
    pub flow: Flow,
    #[command(flatten)]
    pub interface: InterfaceArg,
}

/// The traffic a check runs.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct Selection {
    /// Seed of the random traffic [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Cycles of random traffic [default: 20000].
    #[arg(long, value_name = "N")]
    cycles: Option<u64>,
    #[command(flatten)]
    fault: FaultArg,
}

/// The router unit, as the registry lists it.
pub static KIND: Declared<Args, Selection, WaveArg> = Declared {
    name: "router",
    aliases: &["kautz-router"],
    about: "The router of the network-switch paper (Smit et al. 1991) for a node of K(d,k): the message buffer, the route generator beside it, one attempt per NACK over the d node-disjoint routes, and the receiver",
    docs: "docs/network.md",
    unit: Router::from_args,
    options: PhantomData,
};

/// Why a router or network of 64-bit words has no buffered switches: the switches keep a
/// word and its type bit in 64 bits.
pub(crate) const BUFFERED_WORDS: &str =
    "--flow vct and saf buffer a word with its type bit in 64 bits: take --data-bits 32 or less";

/// The router with validated parameters, behind switches of its flow control; with an
/// AXI4-Stream processor side, its receive FIFO's bytes and the top's name (the router's
/// own is then `<top>_core`).
pub struct Router(pub RouterParams, pub Flow, pub Option<(u64, String)>);

/// The graph of a router unit's params: the unit is built on K(d,k) alone.
pub(crate) fn kautz(params: &RouterParams) -> Kautz {
    *params
        .graph()
        .expect("the router unit is built on K(d,k), with its route generator")
}

impl Router {
    /// The unit the options describe, validated.
    fn from_args(args: Args, top: Option<&str>) -> Result<Box<dyn HardwareUnit>, InputError> {
        if args.flow != Flow::Nack && args.data_bits == 64 {
            return Err(input_error(BUFFERED_WORDS));
        }
        let top = top.unwrap_or(rtl_router::DEFAULT_TOP);
        let axis = match args.interface.fifo(args.max_bytes)? {
            None => None,
            Some(rx_bytes) => {
                axis::check(args.max_bytes, args.data_bits as u32, rx_bytes)
                    .map_err(input_error)?;
                Some((rx_bytes, top.to_string()))
            }
        };
        let name = match axis {
            Some(_) => format!("{top}_core"),
            None => top.to_string(),
        };
        RouterParams::new(args.d, args.k, args.max_bytes, &name)
            .and_then(|params| params.with_data_bits(args.data_bits))
            .map(|params| {
                Box::new(Router(params.with_flow(args.flow), args.flow, axis))
                    as Box<dyn HardwareUnit>
            })
            .map_err(input_error)
    }
}

impl HardwareUnit for Router {
    fn name(&self) -> String {
        "router".to_string()
    }

    fn command_line(&self) -> String {
        let p = &self.0;
        let graph = kautz(p);
        let mut words = format!("router --d {} --k {}", graph.d(), graph.k());
        if p.max_bytes != DEFAULT_MAX_BYTES {
            words += &format!(" --max-bytes {}", p.max_bytes);
        }
        if p.data_bits != DEFAULT_DATA_BITS {
            words += &format!(" --data-bits {}", p.data_bits);
        }
        if self.1 != Flow::Nack {
            words += &format!(" --flow {}", self.1.name());
        }
        if let Some((rx_bytes, _)) = &self.2 {
            words += &format!(" --interface axis --rx-bytes {rx_bytes}");
        }
        let top = self.2.as_ref().map_or(&p.top, |(_, top)| top);
        if top != rtl_router::DEFAULT_TOP {
            words += &format!(" --top {top}");
        }
        words
    }

    fn design(&self) -> Design {
        match &self.2 {
            None => rtl_router::design(&self.0),
            Some((rx_bytes, top)) => router_axis::design(&self.0, *rx_bytes, top),
        }
    }

    fn timing(&self) -> String {
        format!(
            "every output registered: route i taken B = {} cycles after init or next_route (or at the NACK, if later), its head the cycle after",
            self.0.route_cycles()
        )
    }

    fn check(&self, matches: &ArgMatches, _purpose: Purpose) -> Result<Box<dyn Check>, InputError> {
        if self.2.is_some() {
            return Err(input_error(
                "the AXI4-Stream router is checked in its network: kautzgen verify network --interface axis (the router's own check drives its plain ports)",
            ));
        }
        let selection: Selection = read(matches)?;
        let fault = selection.fault.parse::<RouterFault>("router")?;
        if let Some(fault) = fault.filter(|&f| !self.0.has_fault(f)) {
            return Err(input_error(format!(
                "--fault {} is a fault of the router {} acknowledged delivery: {}",
                fault.name(),
                if self.0.ack_timeout.is_some() {
                    "without"
                } else {
                    "with"
                },
                if self.0.ack_timeout.is_some() {
                    "check it with --flow nack"
                } else {
                    "check it with --flow vct or saf"
                }
            )));
        }
        let port_bits = self.0.address_bits();
        if port_bits > 64 {
            return Err(input_error(format!(
                "the router's node words are {port_bits} bits (k*W) and the stream check drives ports of at most 64 bits: check a smaller K(d,k)"
            )));
        }
        let seed = selection.seed.unwrap_or(1);
        let unit = RouterUnit::new(
            self.0.clone().with_fault(fault),
            selection.cycles.unwrap_or(traffic::DEFAULT_CYCLES),
            seed,
        );
        let heading = format!(
            "{}: {} random cycles (seed {seed})",
            crate::sim::stream::StreamUnit::describe(&unit),
            unit.cycle_count()
        );
        Ok(Box::new(FamilyCheck::stream(Box::new(unit), heading)))
    }
}
use std::marker::PhantomData;
