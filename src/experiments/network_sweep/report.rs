//! The table and chart of the network sweep's rows: `sweep.md` (every point, then where
//! first-attempt success falls below 90% and 50%) and `sweep.svg` (per network, delivered
//! fraction, first-attempt success, retries per message and mean latency against the
//! injection rate, one line per number of faulty nodes). Networks are named by their
//! labels in the grid ("K(2,3)", "3-ary 2-cube, bidirectional (vct)").

use super::{Crossing, Grid, Row, crossing};
use crate::experiments::plot::{Panel, panels_svg};

/// A figure drawn: its name, whether it is a fraction (drawn from 0 to 1), its value.
type Figure = (&'static str, bool, fn(&Row) -> Option<f64>);

const FIGURES: [Figure; 4] = [
    ("delivered fraction", true, |r| Some(r.delivered_fraction())),
    ("first-attempt success", true, |r| {
        r.summary.first_attempt_success
    }),
    ("retries per message", false, |r| {
        Some(r.retries_per_message())
    }),
    ("mean latency (cycles)", false, |r| r.summary.mean_latency),
];

/// The label of the network `row` ran on, which must be one of `grid`'s.
fn label<'a>(grid: &'a Grid, row: &Row) -> &'a str {
    let network = grid
        .network_of(&row.network)
        .expect("rows of the grid's networks");
    &grid.networks[network].label
}

/// The rows of each network of `grid`, in the grid's order, those without rows left out.
fn by_network<'a>(grid: &'a Grid, rows: &'a [Row]) -> Vec<(&'a str, Vec<&'a Row>)> {
    grid.networks
        .iter()
        .map(|n| {
            let of: Vec<&Row> = rows.iter().filter(|r| r.network == n.spec).collect();
            (n.label.as_str(), of)
        })
        .filter(|(_, of)| !of.is_empty())
        .collect()
}

/// The chart of the sweep `rows` of `grid` as an SVG document.
pub fn chart(grid: &Grid, rows: &[Row]) -> Result<String, String> {
    let mut panels = Vec::new();
    for (label, of_network) in by_network(grid, rows) {
        for figure in &FIGURES {
            panels.push(panel(label, figure, &of_network));
        }
    }
    panels_svg(
        "The network-switch paper's switches (Smit et al. 1991): uniform traffic against the injection rate",
        FIGURES.len(),
        &panels,
    )
}

/// One figure of one network: a line per number of faulty nodes against the rate.
fn panel(label: &str, &(name, fraction, value): &Figure, rows: &[&Row]) -> Panel {
    let rates: Vec<f64> = rows.iter().map(|r| r.rate).filter(|&r| r > 0.0).collect();
    let (lo, hi) = rates
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &r| (lo.min(r), hi.max(r)));
    let y_top = if fraction {
        1.02
    } else {
        rows.iter()
            .filter_map(|r| value(r))
            .fold(0.0f64, f64::max)
            .max(1e-9)
            * 1.05
    };
    let mut faults: Vec<u64> = rows.iter().map(|r| r.faults).collect();
    faults.sort_unstable();
    faults.dedup();
    let lines = faults
        .iter()
        .map(|&f| {
            let mut line: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.faults == f && r.rate > 0.0)
                .filter_map(|r| Some((r.rate, value(r)?)))
                .collect();
            line.sort_by(|a, b| a.0.total_cmp(&b.0));
            (format!("{f} faulty"), line)
        })
        .collect();
    Panel {
        title: format!("{label}: {name}"),
        x_desc: "messages per node per cycle",
        x_range: (lo.min(hi), hi.max(lo * 1.0001)),
        y_top,
        lines,
    }
}

/// The results as Markdown: every point, then where first-attempt success falls below 90%
/// and 50%.
pub fn table(grid: &Grid, rows: &[Row]) -> String {
    let mut text = String::from(
        "| network | faulty nodes | rate | injected | delivered | first-attempt success | retries per message | mean latency | p99 latency | throughput (bytes/node/cycle) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let percent = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x));
    for r in rows {
        let s = &r.summary;
        text += &format!(
            "| {} | {} | {} | {} | {} | {} | {:.2} | {} | {} | {:.4} |\n",
            label(grid, r),
            r.faults,
            r.rate,
            s.injected,
            percent(Some(r.delivered_fraction())),
            percent(s.first_attempt_success),
            r.retries_per_message(),
            s.mean_latency
                .map_or("-".to_string(), |x| format!("{x:.1}")),
            s.p99_latency.map_or("-".to_string(), |x| x.to_string()),
            s.throughput
        );
    }
    text += "\nFirst-attempt success falls below 90% and 50% at these rates (messages per node per cycle, interpolated between the rates run):\n\n\
             | network | faulty nodes | below 90% | below 50% |\n| --- | ---: | ---: | ---: |\n";
    let mut keys: Vec<(&str, u64)> = rows
        .iter()
        .map(|r| (r.network.as_str(), r.faults))
        .collect();
    keys.dedup();
    for (network, faults) in keys {
        let of: Vec<&Row> = rows
            .iter()
            .filter(|r| (r.network.as_str(), r.faults) == (network, faults))
            .collect();
        let at = |threshold| match crossing(&of, threshold) {
            Crossing::At(x) => format!("{x:.4}"),
            Crossing::AtOrBelow(x) => format!("at or below {x}"),
            Crossing::NotReached => "not reached".to_string(),
        };
        text += &format!(
            "| {} | {faults} | {} | {} |\n",
            label(grid, of[0]),
            at(0.9),
            at(0.5)
        );
    }
    text
}
