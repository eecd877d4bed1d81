//! A simulated network's links as a heat map: the `draw` layout of the network, every link
//! coloured by its utilisation in the measured window and drawn wider the more NACKs were
//! sent back over it (docs/network.md, "Links").
//!
//! In: the network's node names and every link's use, as `netsim --per-link` reports it.
//! Out: DOT text, which [`super::render_svg`] lays out.

use super::{DrawError, MAX_DRAWN_NODES, layout};
use std::fmt::Write;

/// Colours from idle to the busiest link: ColorBrewer's YlOrRd, nine steps.
const SCALE: [&str; 9] = [
    "#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c", "#fc4e2a", "#e31a1c", "#bd0026",
    "#800026",
];

/// One link to draw: from, to (node names), words per cycle, NACKs.
pub struct HeatLink<'a> {
    pub from: &'a str,
    pub to: &'a str,
    pub utilisation: f64,
    pub nacks: u64,
}

/// The heat map of `links` on `network`'s `nodes`, as DOT. The colour scale runs from 0 to
/// the busiest link's utilisation, which the legend gives.
pub fn heatmap_dot(
    network: &str,
    nodes: &[String],
    links: &[HeatLink],
) -> Result<String, DrawError> {
    if nodes.len() as u64 > MAX_DRAWN_NODES {
        return Err(DrawError::TooLargeNetwork {
            network: network.to_string(),
            nodes: nodes.len(),
        });
    }
    let busiest = links.iter().map(|l| l.utilisation).fold(0.0, f64::max);
    let most_nacks = links.iter().map(|l| l.nacks).max().unwrap_or(0);
    let mut dot = format!(
        "digraph \"{network}\" {{\n  graph [layout={}, overlap=false, splines=true, fontname=\"Helvetica\", label=\"{}\", labelloc=t];\n  node [shape=ellipse, fontname=\"Helvetica\", fontsize=11];\n  edge [arrowsize=0.6, fontname=\"Helvetica\", fontsize=8, fontcolor=\"#1f4e9c\"];\n",
        layout(nodes.len()),
        legend(network, busiest, most_nacks)
    );
    for node in nodes {
        writeln!(dot, "  \"{node}\";").expect("a String takes text");
    }
    for link in links {
        let step = match busiest > 0.0 {
            true => (link.utilisation / busiest * (SCALE.len() - 1) as f64).round() as usize,
            false => 0,
        };
        let mut style = format!(
            "color=\"{}\", penwidth={}",
            SCALE[step],
            pen(link.nacks, most_nacks)
        );
        if link.nacks > 0 {
            write!(style, ", label=\"{}\"", link.nacks).expect("a String takes text");
        }
        writeln!(dot, "  \"{}\" -> \"{}\" [{style}];", link.from, link.to)
            .expect("a String takes text");
    }
    dot += "}\n";
    Ok(dot)
}

/// The pen width of a link with `nacks` NACKs: 1.5, up to 6 for the most refused link.
fn pen(nacks: u64, most: u64) -> String {
    let width = 1.5 + 4.5 * nacks as f64 / most.max(1) as f64;
    format!("{width:.2}")
}

/// The drawing's title: what the colours and widths mean, with the scale's ends.
fn legend(network: &str, busiest: f64, most_nacks: u64) -> String {
    format!(
        "{network}: link utilisation (words per cycle), light yellow 0 to dark red {busiest:.3}; width and label: NACKs sent back, at most {most_nacks}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_links_by_utilisation_and_widens_them_by_nacks() {
        let nodes = ["a".to_string(), "b".to_string()];
        let links = [
            HeatLink {
                from: "a",
                to: "b",
                utilisation: 0.5,
                nacks: 4,
            },
            HeatLink {
                from: "b",
                to: "a",
                utilisation: 0.25,
                nacks: 0,
            },
        ];
        let dot = heatmap_dot("ring", &nodes, &links).unwrap();
        assert!(
            dot.contains("\"a\" -> \"b\" [color=\"#800026\", penwidth=6.00, label=\"4\"];"),
            "{dot}"
        );
        // 0.25 of the busiest 0.5: step 4 of 0..8.
        assert!(
            dot.contains("\"b\" -> \"a\" [color=\"#fd8d3c\", penwidth=1.50];"),
            "{dot}"
        );
        assert!(
            dot.contains("dark red 0.500; width and label: NACKs sent back, at most 4"),
            "{dot}"
        );
    }

    #[test]
    fn refuses_networks_too_large_to_read() {
        let nodes: Vec<String> = (0..401).map(|v| v.to_string()).collect();
        let error = heatmap_dot("big", &nodes, &[]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "big has 401 nodes; drawings are limited to 400 nodes to stay readable"
        );
    }
}
