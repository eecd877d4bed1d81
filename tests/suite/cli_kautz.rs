//! The `routes`, `draw` and `bench` commands as a user runs them: exact output, exact
//! one-line errors with exit status 2, and no file left behind when a command fails.

use std::path::PathBuf;
use std::process::{Command, Output};

fn kautzgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kautzgen"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(args: &[&str]) -> String {
    let out = kautzgen(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs a command that must fail on its input: exit 2, nothing on stdout, one line on stderr.
fn refused(args: &[&str]) -> String {
    let out = kautzgen(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err.trim_end().to_string()
}

/// A file in a directory of its own for `test`, since tests run in parallel and some of
/// them look at everything in their directory.
fn scratch(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kautzgen-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn routes_table_3_as_text() {
    assert_eq!(
        stdout(&[
            "routes", "--d", "4", "--k", "5", "--src", "01234", "--dst", "23430"
        ]),
        "4 node-disjoint routes from 01234 to 23430 in K(4,5), shortest first:
  #  phase  len  hops     walk
  1  A      2    30       0123430
  2  A      5    23430    0123423430
  3  B      6    023430   01234023430
  4  C      7    1323430  012341323430
"
    );
}

#[test]
fn routes_of_a_degree_above_nine_in_comma_spelt_words() {
    // By the rules of the route-generator paper (Smit et al. 1991), from 0,11,3 to 11,3,5 in
    // K(12,3): phase A at overlap 2 (hop 5) and 0 (11,3,5); phase B inserts every letter but
    // 3 and 11 (neighbours) and the out-letters 5, 11 and in-letters 0, 3 already used, in
    // increasing order; phase C takes the one out-letter left, 0, with the one in-letter
    // left, 5.
    let b: Vec<String> = [1, 2, 4, 6, 7, 8, 9, 10, 12]
        .iter()
        .map(|z| format!("{{\"hops\":[{z},11,3,5],\"len\":4}}"))
        .collect();
    assert_eq!(
        stdout(&[
            "routes", "--d", "12", "--k", "3", "--src", "0,11,3", "--dst", "11,3,5", "--format",
            "json"
        ]),
        format!(
            "{{\"d\":12,\"k\":3,\"src\":[0,11,3],\"dst\":[11,3,5],\"routes\":[{{\"hops\":[5],\"len\":1}},{{\"hops\":[11,3,5],\"len\":3}},{},{{\"hops\":[0,5,11,3,5],\"len\":5}}]}}\n",
            b.join(",")
        )
    );
    let text = stdout(&[
        "routes", "--d", "12", "--k", "3", "--src", "0,11,3", "--dst", "11,3,5",
    ]);
    assert!(
        text.starts_with(
            "12 node-disjoint routes from 0,11,3 to 11,3,5 in K(12,3), shortest first:\n\
         \x20 #   phase  len  hops        walk\n\
         \x20 1   A      1    5           0,11,3,5\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("  12  C      5    0,5,11,3,5  0,11,3,0,5,11,3,5\n"),
        "{text}"
    );
}

#[test]
fn routes_table_3_as_json() {
    assert_eq!(
        stdout(&[
            "routes",
            "--d",
            "4",
            "--k",
            "5",
            "--src",
            "0,1,2,3,4",
            "--dst",
            "2,3,4,3,0",
            "--format",
            "json"
        ]),
        "{\"d\":4,\"k\":5,\"src\":[0,1,2,3,4],\"dst\":[2,3,4,3,0],\"routes\":[{\"hops\":[3,0],\"len\":2},{\"hops\":[2,3,4,3,0],\"len\":5},{\"hops\":[0,2,3,4,3,0],\"len\":6},{\"hops\":[1,3,2,3,4,3,0],\"len\":7}]}\n"
    );
}

#[test]
fn routes_for_every_pair() {
    assert_eq!(
        stdout(&[
            "routes", "--d", "1", "--k", "2", "--all", "--format", "jsonl"
        ]),
        "{\"d\":1,\"k\":2,\"src\":[0,1],\"dst\":[1,0],\"routes\":[{\"hops\":[0],\"len\":1}]}
{\"d\":1,\"k\":2,\"src\":[1,0],\"dst\":[0,1],\"routes\":[{\"hops\":[1],\"len\":1}]}
"
    );
    let lines = stdout(&[
        "routes", "--d", "2", "--k", "3", "--all", "--format", "jsonl",
    ]);
    assert_eq!(lines.lines().count(), 12 * 11);
    assert!(lines.starts_with("{\"d\":2,\"k\":3,\"src\":[0,1,0],\"dst\":[0,1,2],"));
    let text = stdout(&["routes", "--d", "2", "--k", "3", "--all"]);
    assert!(text.contains("\n120 -> 201: 1 201\n"), "{text}");
}

#[test]
fn bad_parameters_and_words_are_refused() {
    let cases: [(&[&str], &str); 10] = [
        (
            &[
                "routes", "--d", "255", "--k", "64", "--all", "--format", "jsonl",
            ],
            "error: K(255,64) has 255^64 + 255^63 nodes, more than the 16777216 that can be enumerated",
        ),
        (
            &[
                "routes", "--d", "0", "--k", "3", "--src", "01", "--dst", "10",
            ],
            "error: K(d,k) needs 1 <= d <= 255, got d = 0",
        ),
        (
            &[
                "routes", "--d", "256", "--k", "3", "--src", "01", "--dst", "10",
            ],
            "error: K(d,k) needs 1 <= d <= 255, got d = 256",
        ),
        (
            &[
                "routes", "--d", "2", "--k", "65", "--src", "01", "--dst", "10",
            ],
            "error: K(d,k) needs 1 <= k <= 64, got k = 65",
        ),
        (
            &[
                "routes", "--d", "4", "--k", "5", "--src", "01534", "--dst", "23430",
            ],
            "error: node word '01534': letter 5 at position 3 is out of range; K(4,5) uses letters 0 to 4",
        ),
        (
            &[
                "routes", "--d", "4", "--k", "5", "--src", "01234", "--dst", "23340",
            ],
            "error: node word '23340': letters 2 and 3 are both 3; neighbouring letters of a Kautz word must differ",
        ),
        (
            &[
                "routes", "--d", "4", "--k", "5", "--src", "0123", "--dst", "23430",
            ],
            "error: node word '0123' has 4 letters, but nodes of K(4,5) have 5",
        ),
        (
            &[
                "routes", "--d", "4", "--k", "5", "--src", "01234", "--dst", "01234",
            ],
            "error: source and destination are both '01234'; a route needs two different nodes",
        ),
        (
            &[
                "routes", "--d", "4", "--k", "5", "--src", "01234", "--dst", "23430", "--colour",
            ],
            "error: unexpected argument '--colour' found (see --help)",
        ),
        (
            &["routes", "--d", "4", "--k", "5", "--src", "01234"],
            "error: the following required arguments were not provided: --dst <WORD> (see --help)",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(refused(args), message, "{args:?}");
    }
}

#[test]
fn draw_writes_dot_and_svg() {
    let dot = scratch("draw", "k23.dot");
    stdout(&[
        "draw",
        "--d",
        "2",
        "--k",
        "3",
        "--src",
        "120",
        "--dst",
        "201",
        "--out",
        dot.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(text.starts_with("digraph \"K(2,3)\" {\n"));
    assert!(text.contains("  \"120\" -> \"201\" [color=\"#d62728\", penwidth=3];\n"));

    let svg = scratch("draw", "k23.svg");
    stdout(&[
        "draw",
        "--d",
        "2",
        "--k",
        "3",
        "--src",
        "120",
        "--dst",
        "201",
        "--out",
        svg.to_str().unwrap(),
    ]);
    let first = std::fs::read(&svg).unwrap();
    assert!(
        String::from_utf8_lossy(&first).contains("<svg"),
        "Graphviz wrote no SVG (apt-get install graphviz)"
    );
    stdout(&[
        "draw",
        "--d",
        "2",
        "--k",
        "3",
        "--src",
        "120",
        "--dst",
        "201",
        "--out",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(&svg).unwrap(),
        first,
        "the same drawing twice differs"
    );
}

#[test]
fn draw_the_whole_graph_without_a_route_set() {
    // K(2,2): 6 nodes, 12 arcs, none highlighted and no legend.
    let dot = scratch("whole", "k22.dot");
    stdout(&[
        "draw",
        "--d",
        "2",
        "--k",
        "2",
        "--out",
        dot.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&dot).unwrap();
    assert!(text.starts_with("digraph \"K(2,2)\" {\n"), "{text}");
    assert_eq!(text.matches(" -> ").count(), 12);
    for arc in ["\"01\" -> \"10\"", "\"01\" -> \"12\"", "\"21\" -> \"12\""] {
        assert!(text.contains(&format!("  {arc};\n")), "{arc}: {text}");
    }
    assert!(
        !text.contains("penwidth") && !text.contains("label="),
        "{text}"
    );
}

#[test]
fn draw_refuses_without_leaving_a_file() {
    let big = scratch("refuse", "k45.svg");
    assert_eq!(
        refused(&[
            "draw",
            "--d",
            "4",
            "--k",
            "5",
            "--out",
            big.to_str().unwrap()
        ]),
        "error: K(4,5) has 1280 nodes; drawings are limited to 400 nodes to stay readable (choose a smaller d or k)"
    );
    assert!(!big.exists());
    let png = scratch("refuse", "k23.png");
    assert_eq!(
        refused(&[
            "draw",
            "--d",
            "2",
            "--k",
            "3",
            "--out",
            png.to_str().unwrap()
        ]),
        format!(
            "error: --out '{}': .png is neither .svg nor .dot; give --format",
            png.display()
        )
    );
    assert!(!png.exists());
    // A bad word, a pair given by halves, and a source equal to the destination.
    let k23 = scratch("refuse", "k23.dot");
    let out = k23.to_str().unwrap();
    for (args, message) in [
        (
            vec!["--src", "120", "--dst", "211"],
            "error: node word '211': letters 2 and 3 are both 1; neighbouring letters of a Kautz word must differ",
        ),
        (
            vec!["--src", "120"],
            "error: the following required arguments were not provided: --dst <WORD> (see --help)",
        ),
        (
            vec!["--src", "120", "--dst", "120"],
            "error: source and destination are both '120'; a route needs two different nodes",
        ),
    ] {
        let mut command = vec!["draw", "--d", "2", "--k", "3", "--out", out];
        command.extend(args);
        assert_eq!(refused(&command), message, "{command:?}");
    }
    assert!(!k23.exists());
    let leftovers: Vec<_> = std::fs::read_dir(big.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn bench_prints_a_row_per_method() {
    let table = stdout(&[
        "bench",
        "--graph",
        "2,3",
        "--flow-seconds",
        "0.05",
        "--passes",
        "3",
        "--network",
        "2,3,0.01,500",
        "--network-threads",
        "1,2",
    ]);
    let lines: Vec<&str> = table.lines().collect();
    // The route-set table, a blank line, and the switch model's table (d = 2, 4, 15), each
    // switch stepped through the 180 directed and 200,000 random cycles of its traffic;
    // a blank line and the network model's table, a row per thread count.
    assert_eq!(lines.len(), 12, "{table}");
    assert_eq!(lines[3], "");
    assert_eq!(
        lines[4],
        "switch model      cycles  passes    seconds        cycles/s     best pass/s"
    );
    for (line, name) in lines[5..]
        .iter()
        .zip(["3x3 (d = 2)", "5x5 (d = 4)", "16x16 (d = 15)"])
    {
        assert!(
            line.starts_with(&format!("{name:<14}    200180       3  ")),
            "{line}"
        );
    }
    assert_eq!(lines[8], "");
    assert_eq!(
        lines[9],
        "network model     rate   cycles  threads  switch-cycles   seconds  switch-cycles/s  speedup   peak MB  bytes/node   estimated"
    );
    // Seed 1's 61 messages in 500 cycles on the 12 nodes end in cycle 565 (`netsim --d 2
    // --k 3 --rate 0.01 --cycles 500 --message-bytes 16` says so): 12 x 565 switch-cycles,
    // whatever the threads.
    for (line, threads) in lines[10..].iter().zip(["1", "2"]) {
        let start = format!("K(2,3)            0.01      500  {threads:>7}          6780  ");
        assert!(line.starts_with(&start), "{line}");
    }
    assert!(lines[10].contains("     1.00  "), "{}", lines[10]);
    assert_eq!(
        lines[0],
        "graph     method                      route sets  passes    seconds    route sets/s     best pass/s"
    );
    // K(2,3) has 12 nodes: 132 ordered pairs per pass.
    assert!(
        lines[1].starts_with("K(2,3)    golden model                       132       3  "),
        "{}",
        lines[1]
    );
    assert!(lines[2].starts_with("K(2,3)    min-cost flow reference"));
    let flow_sets: u64 = lines[2].split_whitespace().nth(4).unwrap().parse().unwrap();
    assert!(
        flow_sets > 0,
        "the flow reference timed no route set: {}",
        lines[2]
    );
    assert_eq!(
        refused(&["bench", "--graph", "4"]),
        "error: --graph '4' is not D,K (for example --graph 4,5)"
    );
    assert_eq!(
        refused(&["bench", "--network", "4,5,0.01"]),
        "error: --network '4,5,0.01' is not D,K,RATE,CYCLES (for example --network 4,5,0.01,10000)"
    );
}

/// `--version` names the commit the binary was built from, as git tells it.
#[test]
fn version_names_the_commit() {
    let output = kautzgen(&["--version"]);
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let head = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(head.status.success(), "the tests run in a git checkout");
    let commit = String::from_utf8_lossy(&head.stdout).trim().to_string();
    let expected = format!("kautzgen {} (commit {commit}", env!("CARGO_PKG_VERSION"));
    assert!(stdout.starts_with(&expected), "{stdout}");
}
