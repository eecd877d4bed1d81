//! The table `netsim` prints for people: a line naming the run, its faulty links and idle
//! nodes, a row per figure (docs/network.md defines each), then the rows of a measurement,
//! of acknowledged delivery or of switches that route, on deadlock the worms waiting on
//! each other, and with `--per-link` every link's use.

use crate::choice::Choice;
use crate::fabric::switch::Flow;
use crate::network::net::{NetParams, Routing};
use crate::network::stats::{Distribution, LoadSummary, Summary};
use crate::routing::torus::algorithm_label;

/// The figures as an aligned table under a line that names the run (and one that names
/// its faulty links), and on deadlock the worms waiting on each other.
pub(super) fn table(
    params: &NetParams,
    (healthy, idle): (usize, usize),
    faulty_links: &[String],
    s: &Summary,
) -> String {
    let plan = &params.plan;
    let fabric = match (params.routing, params.flow) {
        (
            Routing::Switch {
                algorithm,
                reading,
                buffer_flits,
            },
            _,
        ) => {
            format!(
                "{} switch routing, {buffer_flits}-flit buffers; ",
                algorithm_label(algorithm, reading)
            )
        }
        (Routing::Source, Flow::Nack) => String::new(),
        (Routing::Source, flow) => format!("{} flow control; ", flow.name()),
    };
    let t = &params.traffic;
    let (lo, hi) = (t.bytes.start(), t.bytes.end());
    let bytes = match (t.long_fraction, lo == hi) {
        (Some(p), _) => format!("{lo} or {hi} (long with probability {p})"),
        (None, true) => lo.to_string(),
        (None, false) => format!("{lo}..{hi}"),
    };
    let injection = match t.burst {
        Some(b) => format!(" in bursts ({} cycles on, {} off)", b.on, b.off),
        None => String::new(),
    };
    let mut text = format!(
        "{}: {} nodes, {healthy} healthy; {fabric}{} traffic at rate {}{injection} for {} cycles, {bytes} bytes a message, seed {}\n",
        plan.name(),
        plan.node_count(),
        params.traffic.pattern.name(),
        params.traffic.rate,
        params.cycles,
        params.seed
    );
    if !faulty_links.is_empty() {
        text += &format!("faulty links: {}\n", faulty_links.join(" "));
    }
    if idle > 0 {
        text += &format!(
            "{idle} of the {healthy} healthy nodes make no message: the pattern sends them to themselves or they have no healthy neighbour\n"
        );
    }
    for (name, value) in rows(s) {
        text.push_str(&format!("{name:<22} {value}\n"));
    }
    let waiting = s.routing.iter().flat_map(|r| &r.wait_cycle);
    for (i, w) in waiting.enumerate() {
        if i == 0 {
            text += "worms waiting on each other:\n";
        }
        text += &format!("  {w}\n");
    }
    text + &per_link(s)
}

/// With `--per-link`: every link's use, a line each, under a heading.
fn per_link(s: &Summary) -> String {
    let mut text = String::new();
    for (i, l) in s.per_link.iter().enumerate() {
        if i == 0 {
            text += &format!(
                "{:<16} {:<12} {:>10} {:>11} {:>8}\n",
                "link", "to", "words", "utilisation", "NACKs"
            );
        }
        text += &format!(
            "{:<16} {:<12} {:>10} {:>11.4} {:>8}\n",
            l.link, l.to, l.words, l.utilisation, l.nacks
        );
    }
    text
}

/// A load of the injection period, with its share of the capacity.
fn load(s: &Summary, of: impl Fn(&LoadSummary) -> (f64, f64)) -> String {
    let Some(l) = &s.load else {
        return "-".to_string();
    };
    let (bytes, messages) = of(l);
    let share = l.capacity.map_or(String::new(), |c| {
        format!(", {:.1}% of capacity", 100.0 * bytes / c)
    });
    format!("{bytes:.4} bytes/node/cycle ({messages:.5} messages){share}")
}

/// A distribution's p50, p90, p99, p99.9 and max.
fn percentiles(d: &Distribution) -> String {
    format!(
        "{} / {} / {} / {} / {} cycles (p50 / p90 / p99 / p99.9 / max)",
        d.p50, d.p90, d.p99, d.p999, d.max
    )
}

/// A figure with two decimals and its unit, or `-`.
fn optional(x: Option<f64>, unit: &str) -> String {
    x.map_or("-".to_string(), |x| format!("{x:.2}{unit}"))
}

/// The table's rows: every run's, then those of a measurement, of acknowledged delivery or
/// of switches that route.
fn rows(s: &Summary) -> Vec<(&'static str, String)> {
    let mut rows = run_rows(s);
    rows.extend(measurement_rows(s));
    rows.extend(flow_rows(s));
    rows.extend(receive_rows(s));
    rows.extend(routing_rows(s));
    rows
}

/// Every run's rows.
fn run_rows(s: &Summary) -> Vec<(&'static str, String)> {
    vec![
        ("injected", s.injected.to_string()),
        ("delivered", s.delivered.to_string()),
        ("failed", s.failed.to_string()),
        ("retries", s.retries.to_string()),
        ("mean latency", optional(s.mean_latency, " cycles")),
        (
            "p99 latency",
            s.p99_latency
                .map_or("-".to_string(), |x| format!("{x} cycles")),
        ),
        (
            "latency p50..max",
            s.latency
                .as_ref()
                .map_or("-".to_string(), |l| percentiles(&l.total)),
        ),
        (
            "network latency",
            s.latency.as_ref().map_or("-".to_string(), |l| {
                format!("mean {:.2}; {}", l.network.mean, percentiles(&l.network))
            }),
        ),
        ("mean hops", optional(s.hops.as_ref().map(|h| h.mean), "")),
        ("offered load", load(s, |l| (l.offered, l.offered_messages))),
        (
            "accepted load",
            load(s, |l| (l.accepted, l.accepted_messages)),
        ),
        (
            "per-node load",
            s.load.as_ref().map_or("-".to_string(), |l| {
                let [o0, o1] = l.offered_per_node;
                let [a0, a1] = l.accepted_per_node;
                format!("offered {o0:.4} to {o1:.4}, accepted {a0:.4} to {a1:.4} bytes/cycle")
            }),
        ),
        (
            "links",
            s.links.as_ref().map_or("-".to_string(), |l| {
                let refused = l.most_refused.as_ref().map_or(String::new(), |r| {
                    format!(", most over {r} ({})", l.max_nacks)
                });
                format!(
                    "{:.4} words/cycle each on average, busiest {} at {:.4}; {} NACKs{refused}",
                    l.mean_utilisation, l.busiest, l.max_utilisation, l.nacks
                )
            }),
        ),
        (
            "throughput",
            format!("{:.4} bytes/node/cycle", s.throughput),
        ),
        (
            "first-attempt success",
            optional(s.first_attempt_success.map(|x| 100.0 * x), "%"),
        ),
        ("cycles run", s.cycles.to_string()),
    ]
}

/// A measured run's rows: its phases, and whether it was stable.
fn measurement_rows(s: &Summary) -> Vec<(&'static str, String)> {
    let Some(m) = &s.measurement else {
        return Vec::new();
    };
    vec![
        (
            "measurement",
            format!(
                "{} cycles of warm-up, a window of {}, drained in {}",
                m.warmup, m.window, m.drained
            ),
        ),
        (
            "stable",
            match m.unstable {
                true => format!(
                    "no: {} messages of the window had not ended at the drain limit",
                    m.unfinished
                ),
                false => "yes".to_string(),
            },
        ),
    ]
}

/// The receive FIFOs' rows: the worms they refused, the bytes their processors took.
fn receive_rows(s: &Summary) -> Vec<(&'static str, String)> {
    let Some(r) = &s.receive else {
        return Vec::new();
    };
    vec![
        (
            "receive refusals",
            format!("{} worms (FIFO full; among the links' NACKs)", r.refusals),
        ),
        ("bytes taken", r.bytes_taken.to_string()),
    ]
}

/// Acknowledged delivery's rows: what it did, and its bounds.
fn flow_rows(s: &Summary) -> Vec<(&'static str, String)> {
    let Some(f) = &s.flow else {
        return Vec::new();
    };
    vec![
        ("ACKs sent", f.acks_sent.to_string()),
        ("ACKs dropped", f.acks_dropped.to_string()),
        ("timeouts", f.timeouts.to_string()),
        ("duplicates", f.duplicates.to_string()),
        ("unacknowledged", f.unacknowledged.to_string()),
        (
            "longest buffer hold",
            format!(
                "{} cycles (bound {})",
                f.longest_buffer_hold, f.buffer_hold_bound
            ),
        ),
        (
            "longest message",
            format!("{} cycles (bound {})", f.longest_message, f.message_bound),
        ),
    ]
}

/// The rows of switches that route: extra hops, what was left, the deadlock.
fn routing_rows(s: &Summary) -> Vec<(&'static str, String)> {
    let Some(r) = &s.routing else {
        return Vec::new();
    };
    vec![
        ("mean extra hops", optional(r.mean_extra_hops, "")),
        ("in flight", r.in_flight.to_string()),
        ("queued", r.queued.to_string()),
        (
            "deadlock",
            if r.deadlock { "yes" } else { "no" }.to_string(),
        ),
    ]
}
