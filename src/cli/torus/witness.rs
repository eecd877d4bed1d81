//! How `kautzgen torus deadlock --simulate` and `deadlock-sweep` show a witness: the
//! messages placed on an analysed cycle and whether the wormhole simulator deadlocks them.
//!
//! In: a [`Witness`] (or none, for an acyclic graph). Out: text lines, a JSON object, or
//! the one-word verdict of the sweep's last column. Cycles are numbered from 0: a deadlock
//! is reported in the first cycle in which no flit moved, a delivery in the cycle the last
//! tail was ejected.

use super::{HeaderJson, header_json, header_text, written};
use crate::experiments::torus_witness::Witness;
use crate::network::params::DEFAULT_BUFFER_FLITS;
use crate::network::stats::Waiting;
use crate::topology::torus::Link;
use serde::Serialize;

/// The cycle, numbered from 0, in which the run ended.
fn last_cycle(witness: &Witness) -> u64 {
    witness.summary.cycles.saturating_sub(1)
}

fn links(links: &[Link]) -> String {
    let text: Vec<String> = links.iter().map(Link::to_string).collect();
    text.join(" ")
}

/// The placed messages, then the outcome and what explains it.
pub(super) fn text(witness: Option<&Witness>) -> String {
    let Some(witness) = witness else {
        return "witness: acyclic, nothing to place\n".to_string();
    };
    let mut text = format!(
        "witness: {} messages placed at cycle 0, one per dependency of the cycle, {} flits \
each, {DEFAULT_BUFFER_FLITS}-flit buffers\n",
        witness.messages.len(),
        witness.message_flits
    );
    for (i, m) in witness.messages.iter().enumerate() {
        text += &format!(
            "  message {i}: {} -> {} over {}, holds {} ({}), asks for {}\n",
            m.src,
            m.dst,
            links(&m.route),
            m.route.last().expect("a route has a hop"),
            header_text(&m.header),
            m.wants
        );
    }
    text + &outcome(witness)
}

fn outcome(witness: &Witness) -> String {
    let s = &witness.summary;
    if witness.routing.deadlock {
        let mut channels = witness.waiting_channels();
        channels.push(channels[0].clone());
        let mut text = format!(
            "witness: deadlock at cycle {}, waiting cycle: {} ({})\n",
            last_cycle(witness),
            channels.join(" -> "),
            if witness.exact {
                "exactly the analysed cycle"
            } else {
                "not the analysed cycle"
            }
        );
        for w in &witness.routing.wait_cycle {
            text += &format!("  {w}\n");
        }
        return text;
    }
    let mut text = if s.failed == 0 {
        format!(
            "witness: no deadlock, all {} messages delivered by cycle {}\n",
            s.delivered,
            last_cycle(witness)
        )
    } else {
        format!(
            "witness: no deadlock, {} of {} messages delivered by cycle {}, {} dropped (every \
port allowed to them faulty)\n",
            s.delivered,
            s.injected,
            last_cycle(witness),
            s.failed
        )
    };
    for reason in witness.unforced() {
        text += &format!("  not forced: {reason}\n");
    }
    text
}

/// The sweep's witness column: `deadlocks` on exactly the analysed cycle, `deadlocks
/// elsewhere`, `delivered`, or `-` for an acyclic graph.
pub(super) fn verdict(witness: Option<&Witness>) -> &'static str {
    match witness {
        None => "-",
        Some(w) if w.exact => "deadlocks",
        Some(w) if w.routing.deadlock => "deadlocks elsewhere",
        Some(w) if w.summary.failed > 0 => "no deadlock, some dropped",
        Some(_) => "delivered",
    }
}

#[derive(Serialize)]
pub(super) struct WitnessJson {
    result: &'static str,
    /// Absent for an acyclic graph.
    #[serde(flatten)]
    run: Option<RunJson>,
}

#[derive(Serialize)]
struct RunJson {
    message_flits: u64,
    buffer_flits: u64,
    messages: Vec<MessageJson>,
    /// The cycle (from 0) of the deadlock or of the last delivery.
    cycle: u64,
    delivered: u64,
    dropped: u64,
    exactly_the_analysed_cycle: bool,
    waiting_cycle: Vec<Waiting>,
    not_forced: Vec<String>,
}

#[derive(Serialize)]
struct MessageJson {
    src: Vec<u32>,
    dst: Vec<u32>,
    route: Vec<String>,
    header: HeaderJson,
    wants: String,
}

pub(super) fn json(witness: Option<&Witness>) -> WitnessJson {
    let Some(witness) = witness else {
        return WitnessJson {
            result: "nothing to place",
            run: None,
        };
    };
    let s = &witness.summary;
    let run = RunJson {
        message_flits: witness.message_flits,
        buffer_flits: DEFAULT_BUFFER_FLITS,
        messages: witness
            .messages
            .iter()
            .map(|m| MessageJson {
                src: written(&m.src),
                dst: written(&m.dst),
                route: m.route.iter().map(Link::to_string).collect(),
                header: header_json(&m.header),
                wants: m.wants.to_string(),
            })
            .collect(),
        cycle: last_cycle(witness),
        delivered: s.delivered,
        dropped: s.failed,
        exactly_the_analysed_cycle: witness.exact,
        waiting_cycle: witness.routing.wait_cycle.clone(),
        not_forced: if witness.routing.deadlock {
            Vec::new()
        } else {
            witness.unforced()
        },
    };
    WitnessJson {
        result: if witness.routing.deadlock {
            "deadlock"
        } else {
            "no deadlock"
        },
        run: Some(run),
    }
}
