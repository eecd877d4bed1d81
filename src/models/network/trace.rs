//! The trace of a network run: one JSON object per message, the contract of
//! `kautzgen netsim --trace` (docs/network.md): `id`, `src`, `dst` (letter lists),
//! `inject`, `bytes`, `attempts` (each `route`, `start`, `outcome`, and `at` for a NACK),
//! `outcome`, `done`, and `arrive` for a delivered message.

use super::message::{AttemptOutcome, Finished};
use crate::routing::kautz::walk;
use crate::topology::kautz::Kautz;
use serde_json::{Value, json};

/// The trace line of `finished`, a message of a run on `graph`.
pub fn trace_line(graph: &Kautz, finished: &Finished) -> Value {
    let m = &finished.message;
    let src = graph.word_at(m.src as usize);
    let dst = graph.word_at(m.dst as usize);
    let (src, dst) = (src.letters(), dst.letters());
    let attempts: Vec<Value> = m
        .attempts
        .iter()
        .map(|a| {
            let mut entry = json!({
                "route": a.route,
                "start": a.start,
                "outcome": a.outcome,
            });
            if let (AttemptOutcome::Nack, Some((_, at))) = (a.outcome, a.nack) {
                entry["at"] = json!(walk(src, &a.route)[at]);
            }
            entry
        })
        .collect();
    let mut line = json!({
        "id": m.id,
        "src": src,
        "dst": dst,
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
