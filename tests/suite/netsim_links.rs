//! `netsim --per-link` and `--heatmap`: every link's use, listed and drawn.

use crate::common::{self, kautzgen};

/// One message of 4 bytes 010 -> 102 on K(2,3): one hop, by letter 2. Its worm is
/// max(L + k + n + 4, 3(L + 1) - 1) = max(1 + 3 + 4 + 4, 5) = 12 words (docs/network.md),
/// of which the source's switch takes the head (the route byte of its own hop): the link
/// carries 11, and no other link carries any.
#[test]
fn every_link_is_listed_with_what_it_carried() {
    let args = [
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0",
        "--cycles",
        "100",
        "--message",
        "010:102",
        "--message-bytes",
        "4",
        "--per-link",
        "--format",
        "json",
    ];
    let json = common::netsim_run(&args);
    let links = json["per_link"].as_array().unwrap();
    // K(2,3): 12 nodes of 2 out-links each, in node then port order.
    assert_eq!(links.len(), 24);
    assert_eq!(links[0]["link"], "010:1");
    let used: Vec<_> = links.iter().filter(|l| l["words"] != 0).collect();
    assert_eq!(
        used,
        [
            &serde_json::json!({"link": "010:2", "to": "102", "words": 11, "utilisation": 0.11, "nacks": 0})
        ]
    );
    let (_, table, _) = kautzgen(&args[..args.len() - 2]);
    assert!(
        table.contains("\nlink             to                words utilisation    NACKs\n010:1            101                   0      0.0000        0\n010:2            102                  11      0.1100        0\n"),
        "{table}"
    );
}

#[test]
fn the_heatmap_draws_every_link_coloured_by_its_use() {
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("heat.dot");
    let (status, out, stderr) = kautzgen(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0",
        "--cycles",
        "100",
        "--message",
        "010:102",
        "--message-bytes",
        "4",
        "--heatmap",
        dot.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    assert!(
        !out.contains("utilisation    NACKs"),
        "no list without --per-link: {out}"
    );
    let dot = std::fs::read_to_string(&dot).unwrap();
    assert_eq!(dot.matches(" -> ").count(), 24, "{dot}");
    // The only busy link is the busiest: the darkest colour; the idle ones the lightest.
    assert!(
        dot.contains("\"010\" -> \"102\" [color=\"#800026\", penwidth=1.50];"),
        "{dot}"
    );
    assert!(
        dot.contains("\"010\" -> \"101\" [color=\"#ffffcc\", penwidth=1.50];"),
        "{dot}"
    );
}

#[test]
fn a_heatmap_is_refused_before_the_run_when_it_cannot_be_drawn() {
    for (extra, error) in [
        (
            ["--d", "4", "--k", "5", "--heatmap", "h.svg"],
            "error: K(4,5) has 1280 nodes; drawings are limited to 400 nodes to stay readable\n",
        ),
        (
            ["--d", "2", "--k", "3", "--heatmap", "h.png"],
            "error: --heatmap 'h.png' must end in .svg or .dot\n",
        ),
    ] {
        let mut args = vec!["netsim", "--rate", "0.01", "--cycles", "10"];
        args.extend(extra);
        let (status, _, stderr) = kautzgen(&args);
        assert_eq!((status, stderr.as_str()), (2, error));
    }
    let (status, _, stderr) = kautzgen(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0.01",
        "--cycles",
        "10",
        "--seeds",
        "2",
        "--per-link",
    ]);
    assert_eq!(
        (status, stderr.as_str()),
        (
            2,
            "error: --trace, --per-link, --heatmap and --histogram show one run: give them without --seeds\n"
        )
    );
}

/// A lone message: the histogram, titled after the network, has its one bucket.
#[test]
fn the_histogram_draws_the_latency_buckets() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("h.svg");
    let (status, _, stderr) = kautzgen(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0",
        "--cycles",
        "100",
        "--message",
        "010:102",
        "--message-bytes",
        "4",
        "--histogram",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(
        svg.contains("K(2,3): latency of the delivered messages"),
        "{svg}"
    );
    assert!(svg.contains("total latency"), "{svg}");
}
