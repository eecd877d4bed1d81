//! `--topology mesh`: the k-ary n-mesh, bidirectional, its boundary ports idle.

use super::torus::{GRID_PARAMS, cube, routes};
use super::{Built, Declared, Given, TopologyError, TopologyKind};
use crate::fabric::network::SwitchNetwork;
use crate::topology::torus::Rings;

pub struct Kind;

pub static KIND: Kind = Kind;

impl TopologyKind for Kind {
    fn name(&self) -> &'static str {
        "mesh"
    }

    fn about(&self) -> &'static str {
        "The k-ary n-mesh: the bidirectional torus without its wraparound links"
    }

    fn network_top(&self) -> &'static str {
        "mesh_network"
    }

    fn params(&self) -> &'static [Declared] {
        &GRID_PARAMS
    }

    fn build(&self, given: &Given) -> Result<Built, TopologyError> {
        let cube = cube(self.name(), given)?;
        let rule = routes(given, cube, Rings::Bidirectional, false);
        Ok(Built::table(SwitchNetwork::mesh(&cube)?, rule))
    }
}
