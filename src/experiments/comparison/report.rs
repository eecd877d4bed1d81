//! The comparison's table (Markdown) and chart (SVG): each network's distances and
//! zero-load latency, its saturation throughput per pattern, and its fault runs; the chart
//! plots latency against accepted load under uniform traffic and the fault runs.

use super::{Comparison, Contender};
use crate::experiments::plot::{Axis, LegendAt, Line, Panel, panels_svg};
use crate::experiments::saturation::Verdict;
use std::fmt::Write;

/// The comparison as Markdown tables, a network a row.
pub fn table(c: &Comparison, contenders: &[Contender]) -> String {
    let mut text = String::new();
    let row = |text: &mut String, cells: Vec<String>| {
        writeln!(text, "| {} |", cells.join(" | ")).expect("a String takes text");
    };
    let rule = |n: usize| format!("|{}\n", " --- |".repeat(n));
    text += "| network | options | nodes | ports | links | diameter | mean distance | capacity (bytes/node/cycle) | zero-load latency (cycles) |\n";
    text += &rule(9);
    for n in contenders {
        let uniform = n.saturation.iter().find(|s| s.pattern == "uniform");
        let zero = uniform
            .and_then(|s| s.found.as_ref())
            .map(|s| s.zero_load_latency);
        row(
            &mut text,
            vec![
                n.network.clone(),
                format!("`{}`", n.options),
                n.nodes.to_string(),
                n.ports.to_string(),
                n.links.to_string(),
                n.diameter.to_string(),
                format!("{:.2}", n.mean_distance),
                format!("{:.4}", n.capacity),
                zero.map_or("-".into(), |z| format!("{z:.1}")),
            ],
        );
    }
    text += "\nSaturation throughput, bytes/node/cycle (fraction of the network's uniform-traffic capacity; < X: saturated at the zero-load probe, which offered X):\n\n";
    let patterns: Vec<&str> = c
        .patterns
        .iter()
        .map(|p| crate::choice::Choice::name(*p))
        .collect();
    text += &format!("| network | {} |\n", patterns.join(" | "));
    text += &rule(patterns.len() + 1);
    for n in contenders {
        let mut cells = vec![n.network.clone()];
        for s in &n.saturation {
            cells.push(match (&s.found, s.below) {
                (Some(f), _) => format!("{:.4} ({:.2})", f.throughput, f.throughput / n.capacity),
                (None, Some(below)) => format!("< {below:.4}"),
                (None, None) => "-".to_string(),
            });
        }
        row(&mut text, cells);
    }
    text + &fault_table(c, contenders)
}

/// The fault runs: delivered fraction and first-attempt success by faulty nodes.
fn fault_table(c: &Comparison, contenders: &[Contender]) -> String {
    let mut text = format!(
        "\nUniform traffic at {} of each network's uniform saturation throughput with 0 to {} faulty nodes: delivered fraction / first-attempt success:\n\n",
        c.fault_load, c.most_faults
    );
    let counts: Vec<String> = (0..=c.most_faults).map(|f| f.to_string()).collect();
    text += &format!(
        "| network | {} |\n|{}\n",
        counts.join(" | "),
        " --- |".repeat(counts.len() + 1)
    );
    let fraction = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.3}"));
    for n in contenders {
        let run = |f: &super::FaultRun| {
            let (d, a) = (f.delivered_fraction, f.first_attempt_success);
            format!("{} / {}", fraction(d), fraction(a))
        };
        // No fault runs without a uniform saturation throughput to load them at.
        let cells: Vec<String> = match n.faults.is_empty() {
            true => vec!["-".to_string(); counts.len()],
            false => n.faults.iter().map(run).collect(),
        };
        text += &format!("| {} | {} |\n", n.network, cells.join(" | "));
    }
    text
}

/// Latency against accepted load under uniform traffic (from the saturation search's
/// unsaturated probes), and the fault runs' delivered fraction and first-attempt success.
pub fn chart(contenders: &[Contender]) -> Result<String, String> {
    let curves: Vec<Line> = contenders
        .iter()
        .map(|n| {
            let uniform = n.saturation.iter().find(|s| s.pattern == "uniform");
            let mut points: Vec<(f64, f64)> = uniform
                .and_then(|s| s.found.as_ref())
                .map(|f| {
                    f.probes
                        .iter()
                        .filter(|j| j.verdict == Verdict::Stable)
                        .filter_map(|j| j.probe.latency.map(|l| (j.probe.accepted, l)))
                        .collect()
                })
                .unwrap_or_default();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            (n.network.clone(), points)
        })
        .collect();
    let faults = |pick: fn(&super::FaultRun) -> Option<f64>| -> Vec<Line> {
        contenders
            .iter()
            .map(|n| {
                let points = n
                    .faults
                    .iter()
                    .filter_map(|f| pick(f).map(|y| (f.faulty_nodes as f64, y)))
                    .collect();
                (n.network.clone(), points)
            })
            .collect()
    };
    let top_load = curves
        .iter()
        .flat_map(|l| &l.1)
        .map(|p| p.0)
        .fold(0.0, f64::max);
    let most_faults = contenders
        .iter()
        .flat_map(|n| &n.faults)
        .map(|f| f.faulty_nodes)
        .max();
    let latencies = curves.iter().flat_map(|l| l.1.iter().map(|p| p.1));
    let fault_axis = || Axis::linear("faulty nodes", most_faults.unwrap_or(1).max(1) as f64);
    let panels = [
        Panel {
            title: "Uniform traffic: latency against accepted load".into(),
            x: Axis::linear("accepted load (bytes/node/cycle)", top_load * 1.05),
            y: Axis::log("mean network latency (cycles)", latencies),
            lines: curves,
            diagonal: false,
            legend_at: Some(LegendAt::LowerRight),
        },
        Panel {
            title: "Delivered fraction with faulty nodes".into(),
            x: fault_axis(),
            y: Axis::linear("delivered / ended messages", 1.0),
            lines: faults(|f| f.delivered_fraction),
            diagonal: false,
            legend_at: None,
        },
        Panel {
            title: "First-attempt success with faulty nodes".into(),
            x: fault_axis(),
            y: Axis::linear("delivered by the first route / ended", 1.0),
            lines: faults(|f| f.first_attempt_success),
            diagonal: false,
            legend_at: None,
        },
    ];
    panels_svg(
        "Networks of one switch size compared (kautzgen netsim compare)",
        3,
        &panels,
    )
}
