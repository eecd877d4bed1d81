//! The trace of a network run: one JSON object per message, the contract of
//! `kautzgen netsim --trace` (docs/network.md): `id`, `src`, `dst` (a Kautz node as its
//! letter list, any other by name), `inject`, `bytes`, `attempts` (each `route`, `start`,
//! `outcome`, and `at` for a NACK), `outcome`, `done`, and `arrive` for a delivered message.

use super::message::{AttemptOutcome, Finished};
use super::plan::Plan;
use serde_json::{Value, json};

/// The trace line of `finished`, a message of a run on `plan`'s network.
pub fn trace_line(plan: &dyn Plan, finished: &Finished) -> Value {
    let m = &finished.message;
    let src = m.src as usize;
    let attempts: Vec<Value> = m
        .attempts
        .iter()
        .map(|a| {
            let mut entry = json!({
                "route": plan.route_json(&a.route),
                "start": a.start,
                "outcome": a.outcome,
            });
            if let (AttemptOutcome::Nack, Some((_, at))) = (a.outcome, a.nack) {
                entry["at"] = plan.node_json(plan.route_node(src, &a.route, at));
            }
            entry
        })
        .collect();
    let mut line = json!({
        "id": m.id,
        "src": plan.node_json(src),
        "dst": plan.node_json(m.dst as usize),
        "inject": m.inject,
        "bytes": m.bytes,
        "attempts": attempts,
        "outcome": finished.outcome,
        "done": finished.done,
    });
    if let Some(arrive) = finished.arrive {
        line["arrive"] = json!(arrive);
    }
    line
}
