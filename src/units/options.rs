//! Options that several units declare alike, each a small clap `Args` struct a unit
//! flattens into its own: the deliberate fault, the sample of pairs, the shard, the waves,
//! the wire delays, the processor side. Options whose meaning differs from unit to unit (the seed, the cycles)
//! each unit declares itself, with its own help and default.

use crate::choice::Choice;
use crate::input::{InputError, input_error};
use crate::rtl::network::axis::Interface;
use crate::sim::delays::DelaySource;
use crate::sim::vectors::{MAX_SAMPLE, Pairs};
use crate::units::choice_arg::choice;
use std::path::PathBuf;

/// `--interface` and `--rx-bytes`: a router's processor side, its own ports or
/// AXI4-Stream behind a receive FIFO (the router and network units).
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct InterfaceArg {
    /// The processor side: the router's own ports, or AXI4-Stream behind a receive FIFO
    /// that refuses worms while full (docs/network.md, "AXI4-Stream interface").
    #[arg(long, value_parser = choice::<Interface>(), default_value = Interface::Plain.name())]
    pub interface: Interface,
    /// With --interface axis: bytes the receive FIFO holds, at least --max-bytes
    /// [default: two whole messages, 2 x --max-bytes].
    #[arg(long, value_name = "N")]
    pub rx_bytes: Option<u64>,
}

impl InterfaceArg {
    /// The plain interface.
    pub fn plain() -> Self {
        InterfaceArg {
            interface: Interface::Plain,
            rx_bytes: None,
        }
    }

    /// The receive FIFO's bytes under AXI4-Stream (two messages of `max_bytes` unless
    /// given), none for the plain ports; `--rx-bytes` without AXI4-Stream is refused.
    pub fn fifo(&self, max_bytes: u64) -> Result<Option<u64>, InputError> {
        match (self.interface, self.rx_bytes) {
            (Interface::Plain, Some(_)) => Err(input_error(
                "--rx-bytes sizes the receive FIFO of --interface axis; the plain router has none",
            )),
            (Interface::Plain, None) => Ok(None),
            (Interface::Axis, rx_bytes) => Ok(Some(rx_bytes.unwrap_or(2 * max_bytes))),
        }
    }
}

/// `--fault`: a deliberate fault built into the design, to see verification fail.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct FaultArg {
    /// Build this deliberate fault into the design, to see verification fail (an unknown
    /// name lists the unit's faults).
    #[arg(long, value_name = "FAULT")]
    pub fault: Option<String>,
}

impl FaultArg {
    /// The fault named, as a fault of `owner` ("switch"); an unknown name lists them.
    pub fn parse<F: Choice>(&self, owner: &str) -> Result<Option<F>, InputError> {
        let Some(name) = self.fault.as_deref() else {
            return Ok(None);
        };
        F::parse(name).map(Some).ok_or_else(|| {
            input_error(format!(
                "--fault '{name}': the {owner}'s faults are {}",
                F::names().join(", ")
            ))
        })
    }
}

/// `--pairs` and the seed of its sample, for units checked on source/destination pairs.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct PairsArg {
    /// "all": every ordered pair of distinct nodes, in lexicographic order; N: N distinct
    /// pairs drawn with --seed (every pair when N reaches their number) [default: 1000].
    #[arg(long, value_name = "all|N", value_parser = parse_pairs)]
    pub pairs: Option<PairCount>,
    /// Seed of the sample drawn by --pairs N [default: 1].
    #[arg(long)]
    pub seed: Option<u64>,
}

/// How many pairs `--pairs` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairCount {
    All,
    Count(u64),
}

fn parse_pairs(text: &str) -> Result<PairCount, String> {
    match text {
        "all" => Ok(PairCount::All),
        _ => text
            .parse()
            .map(PairCount::Count)
            .map_err(|_| format!("'{text}' is neither 'all' nor a number of pairs")),
    }
}

impl PairsArg {
    /// The pairs asked for: every pair, or a sample of at most [`MAX_SAMPLE`] (1000 by
    /// default).
    pub fn pairs(&self) -> Result<Pairs, InputError> {
        match self.pairs.unwrap_or(PairCount::Count(1000)) {
            PairCount::All => Ok(Pairs::All),
            PairCount::Count(count) if count > MAX_SAMPLE => Err(input_error(format!(
                "a sample holds at most {MAX_SAMPLE} pairs, got {count}; verify every pair in shards instead"
            ))),
            PairCount::Count(count) => Ok(Pairs::Sample {
                count,
                seed: self.seed.unwrap_or(1),
            }),
        }
    }
}

/// `--shard`, for units whose vectors are independent of one another; `verify` reads it
/// (`crate::cli::unit::UnitSelection::shard`).
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct ShardArg {
    /// Verify the vectors at positions p with p mod N = I (0 <= I < N), and write their
    /// outcomes to --out FILE: a part, which `kautzgen merge` joins with the other shards'
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
}

/// `--wave`, for units whose check is one run that a VCD file can hold.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct WaveArg {
    /// Write the waves of the run to this VCD file (with one --sim only).
    #[arg(long, value_name = "FILE.vcd")]
    pub wave: Option<PathBuf>,
}

/// `--delays`, for the self-timed units whose nodes are wired with delays.
#[derive(Debug, Clone, clap::Args)]
#[group(skip)]
pub struct DelaysArg {
    /// Self-timed only: the delay of each wire between the switches, one a line in ns
    /// (`s1.in2_cl 7.0` in the switch's ring, `n012.in1_cl 7.0` in a network;
    /// docs/switch.md names the wires), the others at the low end of their range; without
    /// it, every wire's delay is drawn from --seed inside the documented ranges.
    #[arg(long, value_name = "FILE")]
    pub delays: Option<PathBuf>,
}

impl DelaysArg {
    /// Where the wires' delays come from: the file named, or the seed.
    pub fn source(&self) -> Result<DelaySource, InputError> {
        Ok(match &self.delays {
            None => DelaySource::Drawn,
            Some(path) => DelaySource::File(std::fs::read_to_string(path).map_err(|e| {
                input_error(format!("cannot read --delays {}: {e}", path.display()))
            })?),
        })
    }

    /// A delays file refused, with its name.
    pub fn refused(&self, error: impl std::fmt::Display) -> InputError {
        let path = self.delays.as_deref().unwrap_or(std::path::Path::new("-"));
        input_error(format!("--delays {}: {error}", path.display()))
    }
}

/// Reads the options of type `A` that `command` declared from `matches`.
pub fn read<A: clap::FromArgMatches>(matches: &clap::ArgMatches) -> Result<A, InputError> {
    A::from_arg_matches(matches).map_err(|e| input_error(e.to_string()))
}

/// Two groups of options declared as one, `A`'s first: a unit's selection or running
/// options made of the shared ones above.
#[derive(Debug, Clone)]
pub struct And<A, B>(pub A, pub B);

impl<A: clap::FromArgMatches, B: clap::FromArgMatches> clap::FromArgMatches for And<A, B> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        Ok(And(
            A::from_arg_matches(matches)?,
            B::from_arg_matches(matches)?,
        ))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)?;
        self.1.update_from_arg_matches(matches)
    }
}

impl<A: clap::Args, B: clap::Args> clap::Args for And<A, B> {
    fn augment_args(command: clap::Command) -> clap::Command {
        B::augment_args(A::augment_args(command))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        B::augment_args_for_update(A::augment_args_for_update(command))
    }
}
