//! `--topology torus`: the k-ary n-cube, its rings one way (degree n) or both (degree 2n).

use super::{Built, Declared, Given, Param, TopologyError, TopologyKind, required};
use crate::fabric::network::SwitchNetwork;
use crate::network::plan::RouteRule;
use crate::routing::disjoint::RouteKind;
use crate::topology::torus::{Rings, Torus};

pub struct Kind;

pub static KIND: Kind = Kind;

/// The options the torus and the mesh share, but for the rings.
pub(super) const GRID_PARAMS: [Declared; 3] = [
    Declared {
        param: Param::K,
        help: "radix: digits 0..k-1 in each dimension",
    },
    Declared {
        param: Param::N,
        help: "dimensions",
    },
    Declared {
        param: Param::Routes,
        help: "disjoint (default) or dimension-order",
    },
];

/// The cube of `given`'s --k and --n, for `topology`.
pub(super) fn cube(topology: &'static str, given: &Given) -> Result<Torus, TopologyError> {
    let [k, n] = required(topology, [(given.k, "--k"), (given.n, "--n")])?;
    Ok(Torus::new(k, n)?)
}

/// The routes `given` asks for on the torus (`wrap`) or mesh of `cube`.
pub(super) fn routes(given: &Given, cube: Torus, rings: Rings, wrap: bool) -> RouteRule {
    match given.routes.unwrap_or_default() {
        RouteKind::Disjoint => RouteRule::Disjoint,
        RouteKind::DimensionOrder => RouteRule::DimensionOrder { cube, rings, wrap },
    }
}

impl TopologyKind for Kind {
    fn name(&self) -> &'static str {
        "torus"
    }

    fn about(&self) -> &'static str {
        "The k-ary n-cube, its rings unidirectional (--rings uni) or bidirectional (bi)"
    }

    fn network_top(&self) -> &'static str {
        "torus_network"
    }

    fn params(&self) -> &'static [Declared] {
        &[
            GRID_PARAMS[0],
            GRID_PARAMS[1],
            Declared {
                param: Param::Rings,
                help: "uni (switch degree n) or bi (degree 2n, the default)",
            },
            GRID_PARAMS[2],
        ]
    }

    fn build(&self, given: &Given) -> Result<Built, TopologyError> {
        let cube = cube(self.name(), given)?;
        let rings = given.rings.unwrap_or(Rings::Bidirectional);
        let rule = routes(given, cube, rings, true);
        Ok(Built::table(SwitchNetwork::torus(&cube, rings)?, rule))
    }
}
