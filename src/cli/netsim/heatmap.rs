//! `netsim --heatmap FILE`: every link's use drawn on the network ([`crate::draw::heatmap`]),
//! as SVG laid out by Graphviz or as its DOT source, by the file's extension.

use crate::cli::input_error;
use crate::draw::heatmap::{HeatLink, heatmap_dot};
use crate::draw::{DrawError, MAX_DRAWN_NODES, render_svg};
use crate::network::plan::Plan;
use crate::network::stats::LinkUse;
use crate::output;
use std::path::Path;

/// Where the heat map goes, and whether as SVG.
#[derive(Debug, Clone, Copy)]
pub(super) struct Target<'a> {
    path: &'a Path,
    svg: bool,
}

impl<'a> Target<'a> {
    /// The target `path` for `plan`'s network, checked before the run: .svg or .dot, and a
    /// network small enough to read.
    pub fn of(path: &'a Path, plan: &dyn Plan) -> anyhow::Result<Self> {
        let nodes = plan.node_count();
        if nodes as u64 > MAX_DRAWN_NODES {
            return Err(input_error(DrawError::TooLargeNetwork {
                network: plan.name(),
                nodes,
            }));
        }
        let svg = match path.extension().and_then(|e| e.to_str()) {
            Some("svg") => true,
            Some("dot") => false,
            _ => {
                return Err(input_error(anyhow::anyhow!(
                    "--heatmap '{}' must end in .svg or .dot",
                    path.display()
                )));
            }
        };
        Ok(Target { path, svg })
    }

    /// Draws `links`, every link of `plan`'s network, and writes the file.
    pub fn write(self, plan: &dyn Plan, links: &[LinkUse]) -> anyhow::Result<()> {
        let nodes: Vec<String> = (0..plan.node_count()).map(|v| plan.node_name(v)).collect();
        let drawn: Vec<HeatLink> = links
            .iter()
            .map(|l| HeatLink {
                // A link is named NODE:LABEL, and node names hold no colon.
                from: l
                    .link
                    .rsplit_once(':')
                    .map_or(&l.link[..], |(node, _)| node),
                to: &l.to,
                utilisation: l.utilisation,
                nacks: l.nacks,
            })
            .collect();
        let dot = heatmap_dot(&plan.name(), &nodes, &drawn).map_err(input_error)?;
        let bytes = match self.svg {
            true => render_svg(&dot)?,
            false => dot.into_bytes(),
        };
        Ok(output::file::write(self.path, &bytes)?)
    }
}
