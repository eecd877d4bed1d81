//! The topologies a network of switches is built on, each declared once in a file of its
//! own and listed in [`REGISTRY`], which the command line, the tests and the docs iterate.
//! A topology names itself, declares the options it takes with their meaning for it (the
//! command line's help and its refusals come from those declarations), and builds, from
//! what the user gave, its [`SwitchNetwork`] and the source of its routes. No command
//! matches on the topology. docs/topologies.md describes each one.

mod debruijn;
mod file;
mod kautz;
mod mesh;
mod torus;

use crate::fabric::network::{NetworkError, SwitchNetwork};
use crate::input::and_list;
use crate::network::plan::{KautzPlan, Plan, PlanError, RouteRule, TablePlan};
use crate::routing::disjoint::RouteKind;
use crate::routing::kautz::{RouteError, route_set};
use crate::routing::paths::NodePath;
use crate::rtl::kautz_route::faithful;
use crate::topology::debruijn::DeBruijnError;
use crate::topology::edge_list::EdgeListError;
use crate::topology::kautz::{Kautz, KautzError};
use crate::topology::torus::{Rings, TorusError};
use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;
use thiserror::Error;

/// Every topology, in the order help lists them.
pub static REGISTRY: [&dyn TopologyKind; 5] = [
    &kautz::KIND,
    &debruijn::KIND,
    &torus::KIND,
    &mesh::KIND,
    &file::KIND,
];

/// The topology named `name` (`file` for `file:PATH`), if there is one.
pub fn named(name: &str) -> Option<&'static dyn TopologyKind> {
    REGISTRY.iter().copied().find(|t| t.name() == name)
}

/// One topology: its name, its options and how it is built.
pub trait TopologyKind: Sync {
    /// Its name, as `--topology` takes it.
    fn name(&self) -> &'static str;

    /// One line saying what it is.
    fn about(&self) -> &'static str;

    /// The top module of its generated network unless `--top` says otherwise.
    fn network_top(&self) -> &'static str;

    /// The options it takes, each with what it means for this topology.
    fn params(&self) -> &'static [Declared];

    /// The network of what the user gave, which takes only [`TopologyKind::params`].
    fn build(&self, given: &Given) -> Result<Built, TopologyError>;
}

/// An option a topology takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    D,
    K,
    N,
    Rings,
    Routes,
}

impl Param {
    pub const ALL: [Param; 5] = [Param::D, Param::K, Param::N, Param::Rings, Param::Routes];

    /// Its name on the command line, without the dashes.
    pub fn name(self) -> &'static str {
        match self {
            Param::D => "d",
            Param::K => "k",
            Param::N => "n",
            Param::Rings => "rings",
            Param::Routes => "routes",
        }
    }

    /// What its value is called in help.
    pub fn value_name(self) -> &'static str {
        match self {
            Param::D => "D",
            Param::K => "K",
            Param::N => "N",
            Param::Rings => "RINGS",
            Param::Routes => "ROUTES",
        }
    }

    fn is_given(self, given: &Given) -> bool {
        match self {
            Param::D => given.d.is_some(),
            Param::K => given.k.is_some(),
            Param::N => given.n.is_some(),
            Param::Rings => given.rings.is_some(),
            Param::Routes => given.routes.is_some(),
        }
    }
}

/// An option a topology takes, with what it means there.
#[derive(Debug, Clone, Copy)]
pub struct Declared {
    pub param: Param,
    pub help: &'static str,
}

/// What the user gave, as plain values: the command line fills it from the options.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Given {
    pub d: Option<u64>,
    pub k: Option<u64>,
    pub n: Option<u64>,
    pub rings: Option<Rings>,
    pub routes: Option<RouteKind>,
    /// The edge list of `file:PATH`.
    pub path: Option<PathBuf>,
}

/// Why a topology cannot be built as asked; every one is the user's input.
#[derive(Debug, Error)]
pub enum TopologyError {
    #[error("the {topology} topology needs {options}")]
    Missing {
        topology: &'static str,
        options: String,
    },
    #[error(
        "--{option} applies to the {takers} only, not to the {topology} topology; it takes {takes}"
    )]
    NotTaken {
        option: &'static str,
        takers: String,
        topology: &'static str,
        takes: String,
    },
    #[error(transparent)]
    Kautz(#[from] KautzError),
    #[error(transparent)]
    DeBruijn(#[from] DeBruijnError),
    #[error(transparent)]
    Torus(#[from] TorusError),
    #[error(transparent)]
    Network(#[from] NetworkError),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("{path}: {error}")]
    EdgeList { path: String, error: EdgeListError },
    #[error("cannot read the edge list {path}: {error}")]
    Read { path: String, error: std::io::Error },
}

/// `kind` built from `given`, after refusing an option it does not take.
pub fn build(kind: &dyn TopologyKind, given: &Given) -> Result<Built, TopologyError> {
    for param in Param::ALL {
        let takes = |t: &dyn TopologyKind| t.params().iter().any(|p| p.param == param);
        if param.is_given(given) && !takes(kind) {
            let takers: Vec<&str> = REGISTRY
                .iter()
                .filter(|t| takes(**t))
                .map(|t| t.name())
                .collect();
            return Err(TopologyError::NotTaken {
                option: param.name(),
                takers: format!(
                    "{} topolog{}",
                    and_list(&takers),
                    if takers.len() == 1 { "y" } else { "ies" }
                ),
                topology: kind.name(),
                takes: kind
                    .params()
                    .iter()
                    .map(|p| format!("--{}", p.param.name()))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    }
    kind.build(given)
}

/// The values of `wanted` options, or which of them are missing for `topology`.
fn required<const N: usize>(
    topology: &'static str,
    wanted: [(Option<u64>, &str); N],
) -> Result<[u64; N], TopologyError> {
    let missing: Vec<&str> = wanted
        .iter()
        .filter(|(v, _)| v.is_none())
        .map(|(_, f)| *f)
        .collect();
    if !missing.is_empty() {
        return Err(TopologyError::Missing {
            topology,
            options: and_list(&missing),
        });
    }
    Ok(wanted.map(|(v, _)| v.expect("none missing")))
}

/// A topology built: how the network model and the network generator run it
/// ([`Built::plan`]), and the network of switches and node paths that `kautzgen topology`
/// shows.
#[derive(Debug, Clone)]
pub enum Built {
    /// K(d,k) with its route generator. Its plan and its network of switches are made
    /// only when asked for: each holds a different largest size.
    Kautz(Kautz),
    /// Any other network, its routers holding a route table.
    Table(Arc<TablePlan>),
}

impl Built {
    /// `network`, its routers holding route tables of `rule`'s routes.
    fn table(network: SwitchNetwork, rule: RouteRule) -> Self {
        Built::Table(Arc::new(TablePlan::new(network, rule)))
    }

    /// The topology as the network model runs it; a Kautz router's route generator is the
    /// faithful architecture's.
    pub fn plan(&self) -> Result<Arc<dyn Plan>, PlanError> {
        Ok(match self {
            Built::Kautz(graph) => {
                let cycles = faithful::cycle_bound(graph.d(), graph.k()) as u64;
                Arc::new(KautzPlan::new(*graph, cycles)?)
            }
            Built::Table(plan) => Arc::clone(plan) as Arc<dyn Plan>,
        })
    }

    /// The network of switches, node by node.
    pub fn network(&self) -> Result<Cow<'_, SwitchNetwork>, NetworkError> {
        match self {
            Built::Kautz(graph) => SwitchNetwork::kautz(graph).map(Cow::Owned),
            Built::Table(plan) => Ok(Cow::Borrowed(plan.network())),
        }
    }

    /// What the source router of a pair holds, in the order it tries them, as node paths.
    pub fn routes(&self, src: usize, dst: usize) -> Result<Vec<NodePath>, RouteError> {
        Ok(match self {
            Built::Kautz(graph) => {
                let (s, t) = (graph.word_at(src), graph.word_at(dst));
                route_set(graph, s.letters(), t.letters())?
                    .iter()
                    .map(|route| {
                        let mut word = s.letters().to_vec();
                        let mut path = vec![src];
                        for &a in &route.hops {
                            word.remove(0);
                            word.push(a);
                            path.push(graph.index_of(&word));
                        }
                        path
                    })
                    .collect()
            }
            Built::Table(plan) => plan.rule().paths(plan.network(), src, dst),
        })
    }

    /// Where the routes come from, in a few words.
    pub fn route_source(&self) -> &'static str {
        match self {
            Built::Kautz(_) => "the route generator's d node-disjoint routes, shortest first",
            Built::Table(plan) => match plan.rule() {
                RouteRule::Disjoint => {
                    "as many node-disjoint routes as the pair has, least total length, shortest first"
                }
                RouteRule::DimensionOrder { .. } => "one dimension-order route, dimension 0 first",
            },
        }
    }
}
