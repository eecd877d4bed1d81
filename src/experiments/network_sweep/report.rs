//! The table and chart of the network sweep's rows: `sweep.md` (every point, then where
//! first-attempt success falls below 90% and 50%) and `sweep.svg` (a row of four panels:
//! mean latency against accepted load on a log scale, accepted against offered load with
//! the line y = x, first-attempt success and delivered fraction against offered load). A
//! line is a network of the grid, or with the fault sweep a number of faulty nodes, a row
//! of panels per network. Networks are named by their labels in the grid ("K(2,3)",
//! "3-ary 2-cube, bidirectional (vct)"); figures with several seeds are their means.

use super::{Crossing, Figure, Grid, Row, crossing};
use crate::experiments::plot::{Axis, LegendAt, Line, Panel, panels_svg};

/// Loads are data bytes per healthy node per cycle.
const OFFERED: &str = "offered load (bytes/node/cycle)";
const ACCEPTED: &str = "accepted load (bytes/node/cycle)";

/// The label of the network `row` ran on, which must be one of `grid`'s.
fn label<'a>(grid: &'a Grid, row: &Row) -> &'a str {
    let network = grid
        .network_of(&row.network)
        .expect("rows of the grid's networks");
    &grid.networks[network].label
}

/// The lines of one row of panels: each a legend label and its rows.
type Group<'a> = Vec<(String, Vec<&'a Row>)>;

/// The rows of panels: with the fault sweep, one per network with a line per number of
/// faulty nodes; else one with a line per network, ten at most a row.
fn groups<'a>(grid: &'a Grid, rows: &'a [Row]) -> Vec<(String, Group<'a>)> {
    let of = |spec: &str, faults: u64| -> Vec<&Row> {
        let mut of: Vec<&Row> = rows
            .iter()
            .filter(|r| r.network == spec && r.faults == faults)
            .collect();
        of.sort_by(|a, b| a.rate.total_cmp(&b.rate));
        of
    };
    let mut groups = Vec::new();
    if grid.fault_sweep {
        for (i, n) in grid.networks.iter().enumerate() {
            let lines: Group = grid
                .fault_counts(i)
                .map(|f| (faulty(f), of(&n.spec, f)))
                .filter(|(_, rows)| !rows.is_empty())
                .collect();
            groups.push((format!("{}: ", n.label), lines));
        }
    } else {
        for chunk in grid.networks.chunks(10) {
            let lines: Group = chunk
                .iter()
                .map(|n| (n.label.clone(), of(&n.spec, n.params.faults.random_nodes)))
                .filter(|(_, rows)| !rows.is_empty())
                .collect();
            groups.push((String::new(), lines));
        }
    }
    groups.retain(|(_, lines)| !lines.is_empty());
    groups
}

/// `faults` faulty nodes, in words.
fn faulty(faults: u64) -> String {
    match faults {
        1 => "1 faulty node".to_string(),
        f => format!("{f} faulty nodes"),
    }
}

/// The chart of the sweep `rows` of `grid` as an SVG document.
pub fn chart(grid: &Grid, rows: &[Row]) -> Result<String, String> {
    let mut panels = Vec::new();
    for (prefix, lines) in groups(grid, rows) {
        panels.extend(panels_of(&prefix, &lines));
    }
    let seeds = match grid.seeds {
        1 => String::new(),
        n => format!(", means over {n} seeds"),
    };
    panels_svg(
        &format!("Network sweep: latency and throughput against the load{seeds}"),
        4,
        &panels,
    )
}

/// The points of `value` against `x` of each line, those without either left out.
fn lines(group: &Group, x: Figure, y: Figure) -> Vec<Line> {
    group
        .iter()
        .map(|(label, rows)| {
            let points = rows
                .iter()
                .filter_map(|r| Some((r.mean(x)?, r.mean(y)?)))
                .filter(|&(x, _)| x > 0.0)
                .collect();
            (label.clone(), points)
        })
        .collect()
}

/// The four panels of one row: latency, accepted load, first-attempt success and
/// delivered fraction, which holds the row's legend (its lower left is empty until the
/// network saturates).
fn panels_of(prefix: &str, group: &Group) -> [Panel; 4] {
    let values = |lines: &[Line], y: bool| -> Vec<f64> {
        let of = |&(a, b): &(f64, f64)| if y { b } else { a };
        lines.iter().flat_map(|(_, l)| l.iter().map(of)).collect()
    };
    let latency = lines(group, Figure::AcceptedLoad, Figure::MeanLatency);
    let accepted = lines(group, Figure::OfferedLoad, Figure::AcceptedLoad);
    let offered = Axis::log(OFFERED, values(&accepted, false));
    let fraction = |name: &str, figure| Panel {
        title: format!("{prefix}{name}"),
        x: offered.clone(),
        y: Axis::linear(&format!("{name} (fraction)"), 1.02),
        lines: lines(group, Figure::OfferedLoad, figure),
        diagonal: false,
        legend_at: None,
    };
    [
        Panel {
            title: format!("{prefix}mean latency against accepted load"),
            x: Axis::log(ACCEPTED, values(&latency, false)),
            y: Axis::log("mean total latency (cycles)", values(&latency, true)),
            lines: latency,
            diagonal: false,
            legend_at: None,
        },
        Panel {
            title: format!("{prefix}accepted against offered load (dashed: y = x)"),
            y: Axis::log(ACCEPTED, values(&accepted, true)),
            x: offered.clone(),
            lines: accepted,
            diagonal: true,
            legend_at: None,
        },
        fraction("first-attempt success", Figure::FirstAttemptSuccess),
        Panel {
            legend_at: Some(LegendAt::LowerLeft),
            ..fraction("delivered fraction", Figure::DeliveredFraction)
        },
    ]
}

/// The results as Markdown: every point, then where first-attempt success falls below 90%
/// and 50%.
pub fn table(grid: &Grid, rows: &[Row]) -> String {
    let mut text = match grid.seeds {
        1 => String::new(),
        n => {
            format!("Means over {n} seeds (their 95% confidence half-widths are in sweep.csv).\n\n")
        }
    };
    text.push_str(
        "| network | faulty nodes | rate | injected | delivered | first-attempt success | retries per message | mean latency | p99 latency | throughput (bytes/node/cycle) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let percent = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{:.1}%", 100.0 * x));
    let fixed =
        |x: Option<f64>, places: usize| x.map_or("-".to_string(), |x| format!("{x:.places$}"));
    // A count: exact from one run, a mean of several to a tenth.
    let count = |x: Option<f64>| match x {
        Some(x) if x.fract() == 0.0 => format!("{x}"),
        x => fixed(x, 1),
    };
    for r in rows {
        text += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            label(grid, r),
            r.faults,
            r.rate,
            count(r.mean(Figure::Injected)),
            percent(r.mean(Figure::DeliveredFraction)),
            percent(r.mean(Figure::FirstAttemptSuccess)),
            fixed(r.retries_per_message(), 2),
            fixed(r.mean(Figure::MeanLatency), 1),
            count(r.mean(Figure::P99Latency)),
            fixed(r.mean(Figure::Throughput), 4),
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
