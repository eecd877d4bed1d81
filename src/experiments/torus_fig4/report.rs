//! The table and chart of Fig. 4's cells: `fig4.md` (per algorithm, n and fault count the
//! means over seeds with their 95 % confidence half-widths) and `fig4.svg` (mean extra hops,
//! latency and messages dropped against the network size, one line per number of faulty
//! links, one row of panels per algorithm).

use super::{Fig4, Fig4Cell};
use crate::choice::Choice;
use crate::experiments::confidence::Estimate;
use crate::experiments::plot::{Axis, LegendAt, Panel, panels_svg};

fn estimate_text(e: Option<Estimate>) -> String {
    match e {
        None => "-".to_string(),
        Some(Estimate {
            mean,
            half_width: None,
        }) => format!("{mean:.3}"),
        Some(Estimate {
            mean,
            half_width: Some(h),
        }) => format!("{mean:.3} ± {h:.3}"),
    }
}

/// The cells as Markdown, one line per (algorithm, n, faults).
pub fn table(fig4: &Fig4, cells: &[Fig4Cell]) -> String {
    let mut text = format!(
        "Binary n-cubes, uniform traffic: a message per node per time step with probability {} for {} steps, {} flits a message, {}-flit buffers; means over seeds with 95 % confidence half-widths.\n\n\
         | algorithm | n | nodes | faulty links | runs | deadlocks | injected | delivered | dropped | mean extra hops | mean latency (cycles) |\n\
         | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        fig4.rate, fig4.steps, fig4.message_flits, fig4.buffer_flits
    );
    for c in cells {
        text += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            c.algorithm.name(),
            c.n,
            1u64 << c.n,
            c.faults,
            c.runs,
            c.deadlocks,
            c.injected,
            c.delivered,
            c.dropped,
            estimate_text(c.extra_hops),
            estimate_text(c.latency)
        );
    }
    text
}

/// Per algorithm, extra hops, latency and the messages dropped against the node count, a
/// line per fault count (the y axis reaches at least 1.25, so an all-zero panel reads 0).
pub fn chart(cells: &[Fig4Cell]) -> Result<String, String> {
    let mut algorithms = Vec::new();
    for c in cells {
        if !algorithms.contains(&c.algorithm) {
            algorithms.push(c.algorithm);
        }
    }
    let sizes: Vec<f64> = cells.iter().map(|c| (1u64 << c.n) as f64).collect();
    let lo = sizes.iter().copied().fold(f64::MAX, f64::min);
    let hi = sizes.iter().copied().fold(f64::MIN, f64::max);
    let x_range = (lo, hi.max(lo * 1.0001));
    type Value = fn(&Fig4Cell) -> Option<f64>;
    let figures: [(&str, Value); 3] = [
        ("mean extra hops", |c| Some(c.extra_hops?.mean)),
        ("mean latency (cycles)", |c| Some(c.latency?.mean)),
        ("dropped (% of injected)", |c| {
            Some(100.0 * c.dropped as f64 / c.injected.max(1) as f64)
        }),
    ];
    let mut panels = Vec::new();
    for &algorithm in &algorithms {
        let of: Vec<&Fig4Cell> = cells.iter().filter(|c| c.algorithm == algorithm).collect();
        for (name, value) in figures {
            let mut faults: Vec<u64> = of.iter().map(|c| c.faults).collect();
            faults.sort_unstable();
            faults.dedup();
            let lines: Vec<(String, Vec<(f64, f64)>)> = faults
                .iter()
                .map(|&f| {
                    let mut line: Vec<(f64, f64)> = of
                        .iter()
                        .filter(|c| c.faults == f)
                        .filter_map(|c| Some(((1u64 << c.n) as f64, value(c)?)))
                        .collect();
                    line.sort_by(|a, b| a.0.total_cmp(&b.0));
                    (format!("{f} faulty links"), line)
                })
                .collect();
            let top = lines
                .iter()
                .flat_map(|(_, l)| l.iter().map(|p| p.1))
                .fold(0.0f64, f64::max)
                .max(1.0)
                * 1.25;
            panels.push(Panel {
                title: format!("{}: {name}", algorithm.name()),
                x: Axis {
                    desc: "nodes".to_string(),
                    range: x_range,
                    log: true,
                },
                y: Axis::linear(name, top),
                lines,
                diagonal: false,
                legend_at: Some(LegendAt::UpperRight),
            });
        }
    }
    panels_svg(
        "Binary n-cubes, Fig. 4 of Demaine and Srinivas's k-ary n-cube paper: wormhole model, rate 0.2 per node per step, 30 steps",
        figures.len(),
        &panels,
    )
}
