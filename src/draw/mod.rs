//! Drawings of Kautz graphs with a route set highlighted, as Graphviz DOT or SVG.
//!
//! In: a small [`Kautz`] graph and, optionally, the route set of one pair. Out: DOT text in
//! which every arc of route i is drawn in colour i and a legend lists the routes; SVG is
//! that DOT laid out by Graphviz, run as an external program. The same layout draws a
//! simulated network's links as a heat map ([`heatmap`]).

use crate::routing::kautz::Route;
use crate::topology::kautz::{Kautz, Letter, Word};
use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};
use thiserror::Error;

pub mod heatmap;

/// Beyond this many nodes a drawing is a hairball: refused rather than drawn badly.
pub const MAX_DRAWN_NODES: u64 = 400;

/// The first route colours, in generation order: ten that are told apart easily.
const PALETTE: [&str; 10] = [
    "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f",
];

/// The colour of route `i` (from 0): the palette, then hues a golden angle apart, which
/// never repeat, at two saturations. K(d,1) is drawn up to d = 399, so a drawing may
/// need hundreds of colours; each route keeps its own.
fn route_colour(i: usize) -> String {
    if let Some(colour) = PALETTE.get(i) {
        return colour.to_string();
    }
    let hue = (i as f64 * 0.618_033_988_749_895).fract();
    let saturation = if i.is_multiple_of(2) { 0.85 } else { 0.55 };
    let (r, g, b) = hsv_to_rgb(hue, saturation, 0.8);
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// HSV (each 0 to 1) to 8-bit RGB.
fn hsv_to_rgb(h: f64, s: f64, v: f64) -> (u8, u8, u8) {
    let sector = h * 6.0;
    let f = sector.fract();
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    let (r, g, b) = match sector as u32 % 6 {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    let byte = |x: f64| (x * 255.0).round() as u8;
    (byte(r), byte(g), byte(b))
}

#[derive(Debug, Error)]
pub enum DrawError {
    #[error(
        "{graph} has {nodes} nodes; drawings are limited to {MAX_DRAWN_NODES} nodes to stay readable (choose a smaller d or k)"
    )]
    TooLarge { graph: Kautz, nodes: String },
    #[error(
        "{network} has {nodes} nodes; drawings are limited to {MAX_DRAWN_NODES} nodes to stay readable"
    )]
    TooLargeNetwork { network: String, nodes: usize },
    #[error(
        "Graphviz 'dot' is not installed: run 'apt-get install graphviz', or write --out FILE.dot"
    )]
    NoGraphviz,
    #[error("Graphviz 'dot' failed: {0}")]
    Graphviz(String),
}

/// The route set to highlight: the pair and its routes in generation order.
pub struct Highlight<'a> {
    pub src: &'a Word,
    pub dst: &'a Word,
    pub routes: &'a [Route],
}

/// The graph as DOT, with `highlight`'s routes in colour.
pub fn kautz_dot(graph: &Kautz, highlight: Option<&Highlight>) -> Result<String, DrawError> {
    let n = match graph.node_count() {
        Some(n) if n <= MAX_DRAWN_NODES => n as usize,
        _ => {
            return Err(DrawError::TooLarge {
                graph: *graph,
                nodes: graph.node_count_decimal(),
            });
        }
    };
    let name = |letters: &[Letter]| format!("\"{}\"", graph.format_letters(letters));
    // Arc (from, to) -> route number; node-disjoint routes never share an arc.
    let mut route_of_arc = BTreeMap::new();
    if let Some(h) = highlight {
        for (i, route) in h.routes.iter().enumerate() {
            let nodes = crate::routing::kautz::walk(h.src.letters(), &route.hops);
            for step in nodes.windows(2) {
                route_of_arc.insert((step[0].clone(), step[1].clone()), i);
            }
        }
    }
    let layout = layout(n);
    let mut dot = format!(
        "digraph \"{graph}\" {{\n  graph [layout={layout}, overlap=false, splines=true, fontname=\"Helvetica\"];\n  node [shape=ellipse, fontname=\"Helvetica\", fontsize=11];\n  edge [color=\"#b0b0b0\", arrowsize=0.6];\n"
    );
    if let Some(h) = highlight {
        dot += &format!(
            "  {} [penwidth=2.5, style=filled, fillcolor=\"#ffe9a8\"];\n  {} [penwidth=2.5, style=filled, fillcolor=\"#c9e7ff\"];\n",
            name(h.src.letters()),
            name(h.dst.letters())
        );
        dot += &legend(graph, h);
    }
    for v in 0..n {
        let word = graph.word_at(v);
        dot += &format!("  {};\n", name(word.letters()));
    }
    for v in 0..n {
        let word = graph.word_at(v);
        for next in graph.out_neighbours(word.letters()) {
            let key = (word.letters().to_vec(), next.letters().to_vec());
            let style = match route_of_arc.get(&key) {
                Some(&i) => format!(" [color=\"{}\", penwidth=3]", route_colour(i)),
                None => String::new(),
            };
            dot += &format!(
                "  {} -> {}{style};\n",
                name(word.letters()),
                name(next.letters())
            );
        }
    }
    dot += "}\n";
    Ok(dot)
}

/// The Graphviz layout of a drawing of `nodes` nodes: a ring of up to a few dozen reads
/// like Fig. 2 of the route-generator paper (Smit et al. 1991); beyond, a spring layout
/// keeps arcs short.
fn layout(nodes: usize) -> &'static str {
    if nodes <= 48 { "circo" } else { "neato" }
}

/// A graph label listing the routes, each in its own colour.
fn legend(graph: &Kautz, h: &Highlight) -> String {
    let mut rows = format!(
        "<b>{} node-disjoint routes from {} to {} in {graph}</b>",
        h.routes.len(),
        graph.format_letters(h.src.letters()),
        graph.format_letters(h.dst.letters())
    );
    for (i, route) in h.routes.iter().enumerate() {
        let walk: Vec<Letter> = h.src.letters().iter().chain(&route.hops).copied().collect();
        rows += &format!(
            "<br/><font color=\"{}\">route {}: {} ({} hop{})</font>",
            route_colour(i),
            i + 1,
            graph.format_letters(&walk),
            route.hops.len(),
            if route.hops.len() == 1 { "" } else { "s" }
        );
    }
    format!("  label=<{rows}>;\n  labelloc=b;\n")
}

/// Lays out `dot` with Graphviz and returns the SVG.
pub fn render_svg(dot: &str) -> Result<Vec<u8>, DrawError> {
    let mut child = crate::interrupt::child::spawn(
        Command::new("dot")
            .arg("-Tsvg")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => DrawError::NoGraphviz,
        _ => DrawError::Graphviz(e.to_string()),
    })?;
    child
        .child_mut()
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(dot.as_bytes())
        .map_err(|e| DrawError::Graphviz(e.to_string()))?;
    let out = child
        .wait_with_output()
        .map_err(|e| DrawError::Graphviz(e.to_string()))?;
    if !out.status.success() {
        let log = String::from_utf8_lossy(&out.stderr);
        return Err(DrawError::Graphviz(
            log.lines().next().unwrap_or("").to_string(),
        ));
    }
    Ok(out.stdout)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routing::kautz::route_set;

    #[test]
    fn colours_each_route_and_lists_it() {
        let g = Kautz::new(2, 3).unwrap();
        let (src, dst) = (g.parse_word("120").unwrap(), g.parse_word("201").unwrap());
        let routes = route_set(&g, src.letters(), dst.letters()).unwrap();
        let h = Highlight {
            src: &src,
            dst: &dst,
            routes: &routes,
        };
        let dot = kautz_dot(&g, Some(&h)).unwrap();
        // Route 1 is the arc 120 -> 201; route 2 runs 120 -> 202 -> 020 -> 201.
        assert!(dot.contains("  \"120\" -> \"201\" [color=\"#d62728\", penwidth=3];\n"));
        for arc in [
            "\"120\" -> \"202\"",
            "\"202\" -> \"020\"",
            "\"020\" -> \"201\"",
        ] {
            assert!(
                dot.contains(&format!("  {arc} [color=\"#1f77b4\", penwidth=3];\n")),
                "{arc}"
            );
        }
        assert!(dot.contains("  \"121\" -> \"210\";\n"));
        assert_eq!(dot.matches(" -> ").count(), 24);
        assert_eq!(dot.matches("penwidth=3]").count(), 4);
        assert!(dot.contains("route 1: 1201 (1 hop)"));
        assert!(dot.contains("route 2: 120201 (3 hops)"));
    }

    #[test]
    fn every_route_has_a_colour_of_its_own() {
        // K(399,1) is the largest drawable degree: 400 nodes, 399 routes between two.
        let colours: Vec<String> = (0..399).map(route_colour).collect();
        let distinct: std::collections::BTreeSet<&String> = colours.iter().collect();
        assert_eq!(distinct.len(), 399);
        assert_eq!(colours[0], "#d62728");
        assert!(colours.iter().all(|c| c.len() == 7 && c.starts_with('#')));
        // HSV corners: red, green, blue, white, black.
        assert_eq!(hsv_to_rgb(0.0, 1.0, 1.0), (255, 0, 0));
        assert_eq!(hsv_to_rgb(1.0 / 3.0, 1.0, 1.0), (0, 255, 0));
        assert_eq!(hsv_to_rgb(2.0 / 3.0, 1.0, 1.0), (0, 0, 255));
        assert_eq!(hsv_to_rgb(0.5, 0.0, 1.0), (255, 255, 255));
        assert_eq!(hsv_to_rgb(0.5, 1.0, 0.0), (0, 0, 0));
        // A drawing of K(12,2) colours its 12 routes 12 ways, arcs and legend alike.
        let g = Kautz::new(12, 2).unwrap();
        let (src, dst) = (g.parse_word("0,1").unwrap(), g.parse_word("2,3").unwrap());
        let routes = route_set(&g, src.letters(), dst.letters()).unwrap();
        assert_eq!(routes.len(), 12);
        let h = Highlight {
            src: &src,
            dst: &dst,
            routes: &routes,
        };
        let dot = kautz_dot(&g, Some(&h)).unwrap();
        for colour in &colours[..12] {
            assert!(
                dot.contains(&format!("[color=\"{colour}\", penwidth=3]")),
                "{colour}"
            );
            assert!(
                dot.contains(&format!("<font color=\"{colour}\">")),
                "{colour}"
            );
        }
    }

    #[test]
    fn refuses_unreadable_drawings() {
        let g = Kautz::new(4, 5).unwrap();
        assert_eq!(
            kautz_dot(&g, None).unwrap_err().to_string(),
            "K(4,5) has 1280 nodes; drawings are limited to 400 nodes to stay readable (choose a smaller d or k)"
        );
    }
}
