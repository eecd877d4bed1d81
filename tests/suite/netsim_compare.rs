//! `netsim compare`: networks of one switch size, chosen by degree and size, compared on
//! distances, saturation and faults; its files and its JSON.

use crate::common::{kautzgen, netsim_json};

/// Degree 2, about 12 nodes: K(2,3) = 12; B(2,4) = 16 (nearer by ratio than 8); the
/// unidirectional 4-ary 2-cube (9 and 16 are as near, 16 by a rounding); the
/// bidirectional ring and the line of 12. Distances worked out by hand:
/// - K(2,3): diameter 3, mean 306/132 = 2.32 (tests/suite/cli_netsim.rs derives it);
/// - B(2,4): diameter 4 = k;
/// - the unidirectional 4x4 torus: a digit is 0 to 3 hops away, 1.5 on average, so the 15
///   other nodes are 16 x 3 = 48 hops away in all: mean 3.2, diameter 6;
/// - the ring of 12: 1,1,2,2,..,5,5,6 = 36 over 11: 3.27, diameter 6;
/// - the line of 12: 2 x sum over d of d(12-d) = 572 over 132: 4.33, diameter 11.
#[test]
fn compare_chooses_networks_of_one_size_and_reports_their_distances() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("cmp");
    let (status, table, stderr) = kautzgen(&[
        "netsim",
        "compare",
        "--degree",
        "2",
        "--nodes",
        "12",
        "--traffic",
        "uniform,neighbour",
        "--cycles",
        "400",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    for row in [
        "| K(2,3) | `--d 2 --k 3` | 12 | 2 | 24 | 3 | 2.32 |",
        "| B(2,4) | `--topology debruijn --d 2 --k 4` | 16 | 2 | 30 | 4 |",
        "| 4-ary 2-cube, unidirectional | `--topology torus --rings uni --k 4 --n 2` | 16 | 2 | 32 | 6 | 3.20 |",
        "| 12-ary 1-cube, bidirectional | `--topology torus --k 12 --n 1` | 12 | 2 | 24 | 6 | 3.27 |",
        "| 12-ary 1-mesh | `--topology mesh --k 12 --n 1` | 12 | 2 | 22 | 11 | 4.33 |",
    ] {
        assert!(table.contains(row), "{row} in\n{table}");
    }
    // 0 and 1 faulty nodes (d - 1 = 1) for every network.
    assert!(table.contains("with 0 to 1 faulty nodes"), "{table}");
    assert_eq!(
        std::fs::read_to_string(out.join("compare.md")).unwrap(),
        table
    );
    let json = netsim_json(&std::fs::read_to_string(out.join("compare.json")).unwrap());
    assert_eq!(json["kind"], "compare");
    let networks = json["networks"].as_array().unwrap();
    assert_eq!(networks.len(), 5);
    for n in networks {
        assert_eq!(n["saturation"].as_array().unwrap().len(), 2, "{n}");
        assert_eq!(n["faults"].as_array().unwrap().len(), 2, "{n}");
    }
    let svg = std::fs::read_to_string(out.join("compare.svg")).unwrap();
    assert!(svg.contains("mean network latency (cycles)") && svg.contains("faulty nodes"));
}

#[test]
fn compare_refuses_bad_input() {
    for (extra, error) in [
        (&["--degree", "0"][..], "--degree must be 1 to 14, got 0"),
        (
            &["--fault-load", "2"][..],
            "--fault-load must be above 0 and at most 1, got 2",
        ),
        (
            &["--network", "--d 2 --k 3 --rate 1"][..],
            "--network '--d 2 --k 3 --rate 1' --with '': unexpected argument '--rate' found",
        ),
    ] {
        let mut args = vec!["netsim", "compare", "--out", "/nonexistent/never"];
        args.extend(extra);
        let (status, _, stderr) = kautzgen(&args);
        assert_eq!(
            (status, stderr.as_str()),
            (2, format!("error: {error}\n").as_str())
        );
    }
}
