//! `--topology file:PATH`: any strongly connected digraph, read from an edge list
//! (`topology::edge_list`, docs/topologies.md).

use super::{Built, Declared, Given, TopologyError, TopologyKind};
use crate::fabric::network::SwitchNetwork;
use crate::network::plan::RouteRule;
use crate::topology::edge_list;

pub struct Kind;

pub static KIND: Kind = Kind;

impl TopologyKind for Kind {
    fn name(&self) -> &'static str {
        "file"
    }

    fn about(&self) -> &'static str {
        "file:PATH, any strongly connected digraph from an edge list ('FROM TO' per line)"
    }

    fn network_top(&self) -> &'static str {
        "graph_network"
    }

    fn params(&self) -> &'static [Declared] {
        &[]
    }

    fn build(&self, given: &Given) -> Result<Built, TopologyError> {
        let path = given
            .path
            .as_ref()
            .expect("the command line gives file its PATH");
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| TopologyError::Read {
            path: shown.clone(),
            error,
        })?;
        let graph = edge_list::parse(&text).map_err(|error| TopologyError::EdgeList {
            path: shown.clone(),
            error,
        })?;
        Ok(Built::table(
            SwitchNetwork::from_edge_list(&shown, &graph)?,
            RouteRule::Disjoint,
        ))
    }
}
