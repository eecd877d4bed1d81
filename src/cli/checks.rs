//! What a check of a unit runs, as `verify` and `generate --testbench` both take it: the
//! pairs or cycles, the seed, a built-in fault, the network's traffic and the torus unit's
//! vectors; which of them apply to which unit; and the checked units built from them, so
//! that a testbench written with a design runs exactly what `verify` runs.

use crate::cli::input_error;
use crate::cli::unit::Unit;
use crate::cli::unit_options::refuse_foreign;
use crate::network::switch::SwitchFault;
use crate::rtl::kautz_route::{self, RouteGenParams};
use crate::rtl::ldi_units::{LdiFault, LdiUnitParams};
use crate::rtl::mrns_path_gen::{self, MrnsPathGenParams};
use crate::rtl::network::router::{RouterFault, RouterParams};
use crate::rtl::network::switch::{SwitchClocking, SwitchParams};
use crate::rtl::network::whole::{NetworkFault, NetworkParams};
use crate::rtl::torus_router::{TorusFault, TorusRouterParams};
use crate::sim::units::ldi::LdiUnit;
use crate::sim::units::mrns::MrnsPathUnit;
use crate::sim::units::network::{self as network_traffic, NetworkUnit};
use crate::sim::units::router::{self as router_traffic, RouterUnit};
use crate::sim::units::switch::{self as switch_traffic, SwitchUnit};
use crate::sim::units::torus::{Headers, TorusUnit, single_faults};
use crate::sim::vectors::{MAX_SAMPLE, Pairs, Shard, VectorSet};
use clap::ValueEnum;

/// The selection of a check, shared by `verify` and `generate --testbench`.
#[derive(Debug, Clone, clap::Args)]
pub struct CheckArgs {
    /// Route generators (Kautz, MRNS): "all": every ordered pair of distinct nodes, in
    /// lexicographic order; N: N distinct pairs drawn with --seed (every pair when N
    /// reaches their number) [default: 1000].
    #[arg(global = true, long, value_name = "all|N", value_parser = parse_pairs)]
    pub pairs: Option<PairCount>,
    /// Route generators: seed of the sample drawn by --pairs N; switch, router, network:
    /// seed of the random traffic (and of the network's faulty nodes) [default: 1].
    #[arg(global = true, long)]
    pub seed: Option<u64>,
    /// Build this deliberate fault into the design, to see verification fail. Kautz (every
    /// architecture): flipped-comparator, used-bit-never-set, phase-b-skipped; MRNS:
    /// rows-frozen-while-shortest, destination-digit-not-skipped; LDI (Theorem 3, h >= 3):
    /// digits-reversed; torus:
    /// mask-directions-swapped; switch:
    /// output-kept-after-eod, nack-not-returned; self-timed switch: rising-edge-sampling;
    /// router: route-taken-late, padding-forgotten; network: links-swapped, nacks-swapped
    /// (an unknown name lists the unit's faults).
    #[arg(global = true, long, value_name = "FAULT")]
    pub fault: Option<String>,
    /// Switch: cycles of random traffic after the directed cases [default: 20000]; of each
    /// switch's own clock in the self-timed ring [default: 2000]; router: cycles of random
    /// traffic [default: 20000]; network: cycles of injection, then the drain [default:
    /// 2000].
    #[arg(global = true, long, value_name = "N")]
    pub cycles: Option<u64>,
    /// Network: messages per healthy node per cycle, 0 to 1 [default: 0.01].
    #[arg(global = true, long, value_name = "R")]
    pub rate: Option<f64>,
    /// Network: faulty nodes, drawn by --seed among all [default: 0].
    #[arg(global = true, long, value_name = "F")]
    pub random_faulty_nodes: Option<u64>,
    /// Torus unit: which vectors to run.
    #[arg(global = true, long, value_enum)]
    pub vectors: Option<TorusVectors>,
}

/// The vectors of the torus unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TorusVectors {
    /// Every input of the cube, then the walks [the default].
    Both,
    /// Every node, destination, reachable header and mask.
    EveryInput,
    /// The router evaluations along every route, with no fault and each single fault.
    Walks,
}

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

impl CheckArgs {
    /// Refuses, as an input error, each option given that `unit` does not take in
    /// `command`.
    pub fn validate(&self, command: &str, unit: &Unit) -> anyhow::Result<()> {
        for (id, given) in [
            ("pairs", self.pairs.is_some()),
            ("seed", self.seed.is_some()),
            ("rate", self.rate.is_some()),
            ("random_faulty_nodes", self.random_faulty_nodes.is_some()),
            ("cycles", self.cycles.is_some()),
            ("vectors", self.vectors.is_some()),
        ] {
            refuse_foreign(command, unit, id, given)?;
        }
        Ok(())
    }

    pub fn seed(&self) -> u64 {
        self.seed.unwrap_or(1)
    }

    /// The route generator's vectors: the pairs of --pairs (1000 sampled unless asked
    /// otherwise), then the invalid words, restricted to `shard`.
    pub fn route_vectors(
        &self,
        params: &RouteGenParams,
        shard: Shard,
    ) -> anyhow::Result<VectorSet> {
        let pairs = match self.pairs.unwrap_or(PairCount::Count(1000)) {
            PairCount::All => Pairs::All,
            PairCount::Count(count) => Pairs::Sample {
                count,
                seed: self.seed(),
            },
        };
        VectorSet::new(&params.graph, pairs, shard).map_err(input_error)
    }

    pub fn route_fault(&self) -> anyhow::Result<Option<kautz_route::Fault>> {
        self.fault_of("Kautz route generator")
    }

    /// The MRNS path generator on the pairs of --pairs, with the fault asked for.
    pub fn mrns_unit(&self, params: &MrnsPathGenParams) -> anyhow::Result<MrnsPathUnit> {
        let unit = match self.pairs.unwrap_or(PairCount::Count(1000)) {
            PairCount::All => MrnsPathUnit::new(params.clone()),
            PairCount::Count(count) if count > MAX_SAMPLE => {
                return Err(input_error(anyhow::anyhow!(
                    "a sample holds at most {MAX_SAMPLE} pairs, got {count}; verify every pair in shards instead"
                )));
            }
            PairCount::Count(count) => MrnsPathUnit::sampled(params.clone(), count, self.seed()),
        }
        .map_err(input_error)?;
        Ok(
            match self.fault_of::<mrns_path_gen::Fault>("MRNS path generator")? {
                Some(fault) => unit.with_fault(fault),
                None => unit,
            },
        )
    }

    /// The LDI unit of `params`, with the fault asked for.
    pub fn ldi_unit(&self, params: &LdiUnitParams) -> anyhow::Result<LdiUnit> {
        let fault = self.fault_of::<LdiFault>("LDI unit")?;
        let params = params.clone().with_fault(fault).map_err(input_error)?;
        Ok(LdiUnit::new(params))
    }

    /// The torus unit on the vectors of --vectors (every input and the walks by default),
    /// with the fault asked for.
    pub fn torus_unit(&self, params: &TorusRouterParams) -> anyhow::Result<TorusUnit> {
        let fault = self.fault_of::<TorusFault>("torus unit")?;
        let params = &params.clone().with_fault(fault);
        let faults = single_faults(params.router.torus(), 1, 1).map_err(input_error)?;
        match self.vectors.unwrap_or(TorusVectors::Both) {
            TorusVectors::Both => TorusUnit::exhaustive(params.clone(), Headers::Reachable)
                .and_then(|unit| unit.with_walks(&faults)),
            TorusVectors::EveryInput => TorusUnit::exhaustive(params.clone(), Headers::Reachable),
            TorusVectors::Walks => TorusUnit::walks(params.clone(), &faults),
        }
        .map_err(input_error)
    }

    /// The synchronous switch on the directed cases and --cycles of random traffic.
    pub fn switch_unit(&self, params: &SwitchParams) -> anyhow::Result<SwitchUnit> {
        debug_assert_eq!(params.clocking, SwitchClocking::Synchronous);
        let fault = self.fault_of::<SwitchFault>("switch")?;
        Ok(SwitchUnit::new(
            params.clone().with_fault(fault),
            self.cycles.unwrap_or(switch_traffic::DEFAULT_CYCLES),
            self.seed(),
        ))
    }

    /// The router in closed loop with its model for --cycles of random traffic.
    pub fn router_unit(&self, params: &RouterParams) -> anyhow::Result<RouterUnit> {
        let fault = self.fault_of::<RouterFault>("router")?;
        let port_bits = params.graph.k() as u32 * params.letter_bits();
        if port_bits > 64 {
            return Err(input_error(anyhow::anyhow!(
                "the router's node words are {port_bits} bits (k*W) and the stream check drives ports of at most 64 bits: check a smaller K(d,k)"
            )));
        }
        Ok(RouterUnit::new(
            params.clone().with_fault(fault),
            self.cycles.unwrap_or(router_traffic::DEFAULT_CYCLES),
            self.seed(),
        ))
    }

    /// The network, with the fault asked for, under the traffic of --rate, --cycles and
    /// --random-faulty-nodes from --seed; the model is run here.
    pub fn network_unit(&self, params: &NetworkParams) -> anyhow::Result<NetworkUnit> {
        let port_bits = params.graph().k() as u32 * params.router.letter_bits();
        if port_bits > 64 {
            return Err(input_error(anyhow::anyhow!(
                "the network's node words are {port_bits} bits (k*W) and the testbench drives ports of at most 64 bits: verify a smaller K(d,k)"
            )));
        }
        let fault = self.fault_of::<NetworkFault>("network")?;
        let params = params.clone().with_fault(fault).map_err(input_error)?;
        NetworkUnit::new(
            params,
            self.rate.unwrap_or(network_traffic::DEFAULT_RATE),
            self.cycles.unwrap_or(network_traffic::DEFAULT_CYCLES),
            self.random_faulty_nodes.unwrap_or(0),
            self.seed(),
        )
        .map_err(input_error)
    }

    /// The fault of --fault as a fault of `owner`, or none.
    pub fn fault_of<F: ValueEnum>(&self, owner: &str) -> anyhow::Result<Option<F>> {
        self.fault
            .as_deref()
            .map(|name| parse_fault(name, owner))
            .transpose()
    }
}

/// A unit's built-in fault by its command-line name; an unknown name lists the unit's.
fn parse_fault<F: ValueEnum>(name: &str, owner: &str) -> anyhow::Result<F> {
    F::from_str(name, false).map_err(|_| {
        let names: Vec<String> = F::value_variants()
            .iter()
            .filter_map(|f| f.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect();
        input_error(anyhow::anyhow!(
            "--fault '{name}': the {owner}'s faults are {}",
            names.join(", ")
        ))
    })
}
