//! `netsim saturate`: the saturation throughput by bisection, on a case whose answer is
//! known from the protocol's arithmetic.

use crate::common::{kautzgen, netsim_json};

/// A unidirectional ring of 4 under neighbour traffic: each node sends only over its own
/// out-link to its successor, which hears from no one else, so no link or receiver is
/// shared and a message is never refused. A source then carries messages back to back:
/// loading n = 16 bytes takes n cycles (docs/network.md, "Sending": the head leaves in
/// S = a + n, B = 2 being shorter than the load), the worm is L + address + n + 4 words
/// (docs/network.md's len, one address byte on a route-table topology) = 1 + 1 + 16 + 4 =
/// 22, its EOD leaves in S + 21 and the next message's first byte is taken the cycle after:
/// a message every 16 + 22 = 38 cycles, 16/38 bytes per node per cycle at most. Beyond it
/// the sources' queues grow; below it the ring accepts all it is offered. The search must
/// find 16/38, and call saturated offered loads above 16/38 / 0.95 (the accepted-fraction
/// criterion: the ring accepts at most 16/38 of any load offered).
#[test]
fn a_permutation_that_shares_no_link_saturates_where_the_arithmetic_says() {
    let (status, out, stderr) = kautzgen(&[
        "netsim",
        "saturate",
        "--topology",
        "torus",
        "--rings",
        "uni",
        "--k",
        "4",
        "--n",
        "1",
        "--traffic",
        "neighbour",
        "--cycles",
        "20000",
        "--precision",
        "0.01",
        "--format",
        "json",
    ]);
    assert_eq!(status, 0, "{stderr}");
    let s = netsim_json(&out);
    let limit = 16.0 / 38.0;
    let throughput = s["throughput"].as_f64().unwrap();
    assert!(
        (throughput - limit).abs() < 0.01 * limit,
        "{throughput} vs {limit}"
    );
    let (low, high) = (
        s["bracket"][0].as_f64().unwrap(),
        s["bracket"][1].as_f64().unwrap(),
    );
    assert!(
        low >= 0.97 * limit && high <= 1.03 * limit / 0.95,
        "{low}..{high}"
    );
    assert!(high - low <= 0.01 * high, "{low}..{high}");
    // With nothing shared, every message crosses in the same time: every unsaturated
    // probe has the zero-load latency.
    let zero = s["zero_load_latency"].as_f64().unwrap();
    for probe in s["probes"].as_array().unwrap() {
        if probe["verdict"] == "stable" {
            assert_eq!(probe["latency"].as_f64(), Some(zero), "{probe}");
        }
    }
    assert_eq!(
        s["probes"][1]["rate"].as_f64(),
        Some(1.0 / 16.0),
        "the sources' limit"
    );
}

#[test]
fn saturate_refuses_bad_input() {
    for (extra, error) in [
        (
            &["--d", "2", "--k", "3", "--precision", "1"][..],
            "--precision must be above 0 and below 1, got 1",
        ),
        (
            &["--d", "2", "--k", "3", "--traffic", "bogus"][..],
            "invalid value 'bogus' for '--traffic <TRAFFIC>'",
        ),
        (
            &["--d", "2", "--k", "3", "--rate", "0.1"][..],
            "unexpected argument '--rate' found",
        ),
    ] {
        let mut args = vec!["netsim", "saturate"];
        args.extend(extra);
        let (status, _, stderr) = kautzgen(&args);
        assert_eq!(status, 2, "{stderr}");
        assert!(stderr.starts_with(&format!("error: {error}")), "{stderr}");
    }
}
