//! `kautzgen netsim` on the command line: bad input gives one line and exit status 2, the
//! JSON summary has the contract's keys and agrees with the trace, line for line, and the
//! same command prints the same figures and trace.

use crate::common;

use common::kautzgen;

const RUN: [&str; 9] = [
    "netsim", "--d", "2", "--k", "3", "--rate", "0.02", "--cycles", "800",
];

#[test]
fn bad_input_is_refused_with_one_line() {
    for (extra, message) in [
        (
            &["--rate", "1.5"][..],
            "injection rate must be between 0 and 1, got 1.5",
        ),
        (
            &["--rate", "-0.1"],
            "injection rate must be between 0 and 1, got -0.1",
        ),
        (
            &["--random-faulty-nodes", "12"],
            "12 faulty nodes of 12 leave fewer than two healthy nodes to send between",
        ),
        (
            &["--random-faulty-nodes", "11"],
            "11 faulty nodes of 12 leave fewer than two healthy nodes to send between",
        ),
        (
            &["--faulty-node", "010", "--faulty-node", "010"],
            "faulty node 010 is given twice",
        ),
        (
            &["--faulty-node", "0101"],
            "node word '0101' has 4 letters, but nodes of K(2,3) have 3",
        ),
        (
            &["--faulty-node", "013"],
            "node word '013': letter 3 at position 3 is out of range; K(2,3) uses letters 0 to 2",
        ),
        (
            &["--faulty-node", "011"],
            "node word '011': letters 2 and 3 are both 1; neighbouring letters of a Kautz word must differ",
        ),
        (
            &["--faulty-link", "012"],
            "faulty link '012' is not NODE:LETTER",
        ),
        (
            &["--faulty-link", "012:2"],
            "faulty link 012:2: node 012 has no out-link by letter 2",
        ),
        (
            &["--message-bytes", "0"],
            "message bytes '0' is not N, LO..HI or SHORT,LONG@P with 1 <= LO <= HI <= 255 and 0 <= P <= 1",
        ),
        (
            &["--message-bytes", "4,16@1.5"],
            "the fraction of long messages must be between 0 and 1, got 1.5",
        ),
        (
            &["--message-bytes", "4,20@0.5"],
            "message bytes must be 1 to 16, got 4..20",
        ),
        (
            &["--burst", "10"],
            "--burst '10' is not ON,OFF, two numbers of cycles",
        ),
        (
            &["--burst", "0,10"],
            "bursts need on and off periods of at least 1 cycle on average, got 0,10",
        ),
        (
            &["--burst", "1,99"],
            "at rate 0.02 with bursts of 1 cycles on and 99 off a node would make 2 messages a cycle while on: at most 1",
        ),
        (
            &["--message-bytes", "20"],
            "message bytes must be 1 to 16, got 20",
        ),
        (
            &["--message-bytes", "4..20"],
            "message bytes must be 1 to 16, got 4..20",
        ),
        (&["--max-bytes", "0"], "max bytes must be 1 to 255, got 0"),
        (
            &["--retry-rounds", "0"],
            "retry rounds must be at least 1, got 0",
        ),
        (
            &["--hot-fraction", "2"],
            "hot-spot fraction must be between 0 and 1, got 2",
        ),
        (
            &["--no-such-option"],
            "unexpected argument '--no-such-option' found (see --help)",
        ),
        (
            &["--flow", "vct", "--retry-rounds", "2"],
            "--flow vct takes one round of attempts: a message sent again in a later round could be handed out twice (docs/flow-control.md)",
        ),
        (
            &["--flow", "saf", "--arbiter", "fixed"],
            "--flow saf needs round-robin switches: a fixed arbiter can keep a buffered worm waiting for ever (docs/flow-control.md)",
        ),
        (
            &["--flow", "wormhole"],
            "invalid value 'wormhole' for '--flow <FLOW>' [possible values: nack, vct, saf] (see --help)",
        ),
    ] {
        let mut line = vec!["netsim", "--d", "2", "--k", "3", "--cycles", "800"];
        if !extra.contains(&"--rate") {
            line.extend(["--rate", "0.02"]);
        }
        line.extend(extra);
        let (status, stdout, stderr) = kautzgen(&line);
        assert_eq!((status, stdout.as_str()), (2, ""), "{extra:?}: {stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{extra:?}");
    }
    for (line, message) in [
        (
            &[
                "netsim", "--d", "4", "--k", "12", "--rate", "0.1", "--cycles", "1",
            ][..],
            "K(4,12) has 20971520 nodes; netsim holds at most 2097152 in memory",
        ),
        (
            &[
                "netsim", "--d", "16", "--k", "2", "--rate", "0.1", "--cycles", "1",
            ],
            "switch degree d must be 1 to 15, got 16",
        ),
    ] {
        let (status, _, stderr) = kautzgen(line);
        assert_eq!((status, stderr), (2, format!("error: {message}\n")));
    }
}

#[test]
fn the_json_summary_and_the_trace_tell_the_same_story() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.jsonl");
    let mut line = RUN.to_vec();
    line.extend([
        "--seed",
        "3",
        "--faulty-node",
        "120",
        "--format",
        "json",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    let (status, stdout, stderr) = kautzgen(&line);
    assert_eq!(status, 0, "{stderr}");
    let summary: serde_json::Value = common::netsim_json(&stdout);
    for key in [
        "injected",
        "delivered",
        "failed",
        "retries",
        "mean_latency",
        "p99_latency",
        "throughput",
        "first_attempt_success",
    ] {
        assert!(summary.get(key).is_some(), "no {key} in {stdout}");
    }
    assert_eq!(summary["healthy_nodes"], 11);
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len() as u64, summary["injected"].as_u64().unwrap());
    let count = |outcome: &str| lines.iter().filter(|l| l["outcome"] == outcome).count() as u64;
    assert_eq!(count("delivered"), summary["delivered"].as_u64().unwrap());
    assert_eq!(count("failed"), summary["failed"].as_u64().unwrap());
    let attempts: u64 = lines
        .iter()
        .map(|l| l["attempts"].as_array().unwrap().len() as u64)
        .sum();
    assert_eq!(
        attempts - lines.len() as u64,
        summary["retries"].as_u64().unwrap()
    );
    let mut at_faulty_neighbour = 0;
    for l in &lines {
        assert!(
            l["src"] != serde_json::json!([1, 2, 0]) && l["dst"] != serde_json::json!([1, 2, 0])
        );
        for a in l["attempts"].as_array().unwrap() {
            match a["outcome"].as_str().unwrap() {
                "delivered" => assert!(a.get("at").is_none()),
                "nack" => {
                    // The in-neighbours of 120 are 012 and 212: a head for 120 is refused there.
                    let at = &a["at"];
                    if *at == serde_json::json!([0, 1, 2]) || *at == serde_json::json!([2, 1, 2]) {
                        at_faulty_neighbour += 1;
                    }
                }
                other => panic!("outcome {other}"),
            }
        }
    }
    assert!(
        at_faulty_neighbour > 0,
        "no route was refused next to the faulty node"
    );
    // The same command makes the same trace and the same JSON, byte for byte.
    let first_trace = std::fs::read(&trace).unwrap();
    let (_, again, _) = kautzgen(&line);
    assert_eq!(std::fs::read(&trace).unwrap(), first_trace);
    assert_eq!(again, stdout);
}

#[test]
fn a_buffered_run_says_what_acknowledged_delivery_did() {
    let mut line = RUN.to_vec();
    line.extend(["--flow", "vct"]);
    let (status, stdout, stderr) = kautzgen(&line);
    assert_eq!(status, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "K(2,3): 12 nodes, 12 healthy; vct flow control; uniform traffic at rate 0.02 for 800 cycles, 16 bytes a message, seed 1"
    );
    let names: Vec<&str> = lines[17..].iter().map(|l| l[..22].trim_end()).collect();
    assert_eq!(
        names,
        [
            "ACKs sent",
            "ACKs dropped",
            "timeouts",
            "duplicates",
            "unacknowledged",
            "longest buffer hold",
            "longest message"
        ]
    );
    line.extend(["--format", "json"]);
    let (_, stdout, _) = kautzgen(&line);
    let json: serde_json::Value = common::netsim_json(&stdout);
    let flow = json["flow"].as_object().unwrap();
    let keys: Vec<&str> = flow.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "acks_dropped",
            "acks_sent",
            "buffer_hold_bound",
            "duplicates",
            "late_copies",
            "longest_buffer_hold",
            "longest_message",
            "lost",
            "message_bound",
            "timeouts",
            "unacknowledged"
        ]
    );
    assert_eq!(
        (flow["late_copies"].as_u64(), flow["lost"].as_u64()),
        (Some(0), Some(0))
    );
    // K(2,3), 16-byte messages: the longest worm is 5 + 3 + 16 + 6 = 30 words; a buffer
    // holds one at most 2 * 30 + 3 * 31 = 153 cycles.
    assert_eq!(flow["buffer_hold_bound"].as_u64(), Some(153));
}

#[test]
fn the_table_names_the_run() {
    let (status, stdout, stderr) = kautzgen(&RUN);
    assert_eq!(status, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "K(2,3): 12 nodes, 12 healthy; uniform traffic at rate 0.02 for 800 cycles, 16 bytes a message, seed 1"
    );
    let names: Vec<&str> = lines[1..].iter().map(|l| l[..22].trim_end()).collect();
    assert_eq!(
        names,
        [
            "injected",
            "delivered",
            "failed",
            "retries",
            "mean latency",
            "p99 latency",
            "latency p50..max",
            "network latency",
            "mean hops",
            "offered load",
            "accepted load",
            "per-node load",
            "links",
            "throughput",
            "first-attempt success",
            "cycles run"
        ]
    );
}

fn sweep(dir: &std::path::Path, extra: &[&str]) -> (i32, String, String) {
    let mut line = vec![
        "netsim",
        "sweep",
        "--graph",
        "2,3",
        "--rates",
        "0.002,0.02",
        "--cycles",
        "500",
        "--out",
        dir.to_str().unwrap(),
    ];
    line.extend(extra);
    kautzgen(&line)
}

#[test]
fn a_sweep_agrees_with_single_runs() {
    let whole = tempfile::tempdir().unwrap();
    let (status, table, stderr) = sweep(whole.path(), &[]);
    assert_eq!(status, 0, "{stderr}");
    let read = |dir: &std::path::Path, name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    let csv = read(whole.path(), "sweep.csv");
    let rows: Vec<&str> = csv.lines().collect();
    // K(2,3): 0 and 1 faulty nodes, at two rates.
    assert_eq!(rows.len(), 5, "{csv}");
    assert_eq!(
        rows[0],
        "network,faults,rate,injected,delivered,failed,retries,mean_latency,p99_latency,throughput,first_attempt_success,cycles,\
         delivered_fraction,offered_load,accepted_load,unstable,seeds,injected_ci95,delivered_ci95,failed_ci95,retries_ci95,\
         mean_latency_ci95,p99_latency_ci95,throughput_ci95,first_attempt_success_ci95,cycles_ci95,delivered_fraction_ci95,\
         offered_load_ci95,accepted_load_ci95,unstable_ci95"
    );
    for (row, (faults, rate)) in
        rows[1..]
            .iter()
            .zip([("0", "0.002"), ("0", "0.02"), ("1", "0.002"), ("1", "0.02")])
    {
        let (status, json, _) = kautzgen(&[
            "netsim",
            "--d",
            "2",
            "--k",
            "3",
            "--rate",
            rate,
            "--cycles",
            "500",
            "--random-faulty-nodes",
            faults,
            "--format",
            "json",
        ]);
        assert_eq!(status, 0);
        let s: serde_json::Value = common::netsim_json(&json);
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[..3], ["--d 2 --k 3 --cycles 500", faults, rate]);
        for (i, key) in [
            (3, "injected"),
            (4, "delivered"),
            (5, "failed"),
            (6, "retries"),
            (11, "cycles"),
        ] {
            assert_eq!(fields[i], s[key].to_string(), "{key} of {row}");
        }
    }
    assert_eq!(table, read(whole.path(), "sweep.md"));
    assert!(table.contains("\n| K(2,3) | 0 | "), "{table}");
    assert!(read(whole.path(), "sweep.svg").starts_with("<svg"));
}

#[test]
fn a_sweep_of_any_topology_and_flow_agrees_with_single_runs() {
    // The 3-ary 2-cube (switch degree 4: 0 to 3 faulty nodes) under virtual cut-through.
    let dir = tempfile::tempdir().unwrap();
    let network = [
        "--topology",
        "torus",
        "--k",
        "3",
        "--n",
        "2",
        "--flow",
        "vct",
    ];
    let mut line = vec!["netsim", "sweep", "--rates", "0.01", "--cycles", "300"];
    line.extend(network);
    line.extend(["--out", dir.path().to_str().unwrap()]);
    let (status, table, stderr) = kautzgen(&line);
    assert_eq!(status, 0, "{stderr}");
    assert!(
        table.contains("\n| 3-ary 2-cube, bidirectional (vct) | 3 | 0.01 | "),
        "{table}"
    );
    let csv = std::fs::read_to_string(dir.path().join("sweep.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{csv}");
    for (faults, row) in rows.iter().enumerate() {
        let faults = faults.to_string();
        let mut single = vec![
            "netsim", "--rate", "0.01", "--cycles", "300", "--format", "json",
        ];
        single.extend(network);
        single.extend(["--random-faulty-nodes", &faults]);
        let (status, json, stderr) = kautzgen(&single);
        assert_eq!(status, 0, "{stderr}");
        let s: serde_json::Value = common::netsim_json(&json);
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(
            fields[..3],
            [
                "--topology torus --k 3 --n 2 --flow vct --cycles 300",
                &faults,
                "0.01"
            ]
        );
        assert_eq!(
            [fields[3], fields[4], fields[11]],
            [
                s["injected"].to_string(),
                s["delivered"].to_string(),
                s["cycles"].to_string()
            ]
        );
    }
}

#[test]
fn a_sweep_refuses_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    for (extra, message) in [
        (
            &["--rates", "0,0.1"][..],
            "rates must be above 0 and at most 1, got 0",
        ),
        (
            &["--shard", "2/2"],
            "shard '2/2' is not I/N with 0 <= I < N (for example 0/8)",
        ),
        (
            &["--topology", "mesh", "--k", "3", "--n", "2"],
            "--graph lists Kautz graphs; with --topology or its options the sweep runs the one network they name",
        ),
    ] {
        let (status, stdout, stderr) = sweep(dir.path(), extra);
        assert_eq!((status, stdout.as_str()), (2, ""), "{extra:?}: {stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{extra:?}");
    }
}

/// The sweep's CSV as rows of fields by column name.
fn sweep_rows(dir: &std::path::Path) -> Vec<std::collections::HashMap<String, String>> {
    let csv = std::fs::read_to_string(dir.join("sweep.csv")).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|line| {
            let fields = line.split(',').map(String::from);
            header.iter().map(|h| h.to_string()).zip(fields).collect()
        })
        .collect()
}

/// A single `netsim` run's JSON.
fn single_run(args: &[&str]) -> serde_json::Value {
    let mut line = vec!["netsim", "--format", "json"];
    line.extend(args);
    let (status, json, stderr) = kautzgen(&line);
    assert_eq!(status, 0, "{stderr}");
    serde_json::from_str(&json).unwrap()
}

/// Whether `a` is `b` but for the last bits (serde_json reads floats to within an ulp).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

/// A figure of a single run as the sweep's CSV names it.
fn figure(s: &serde_json::Value, name: &str) -> f64 {
    match name {
        "offered_load" => s["load"]["offered"].as_f64().unwrap(),
        "accepted_load" => s["load"]["accepted"].as_f64().unwrap(),
        name => s[name].as_f64().unwrap(),
    }
}

const COMPARED: [&str; 8] = [
    "injected",
    "delivered",
    "failed",
    "retries",
    "mean_latency",
    "cycles",
    "offered_load",
    "accepted_load",
];

#[test]
fn a_sweep_varies_traffic_and_each_row_is_the_single_run_of_its_options() {
    // The 4-ary 2-cube (switch degree 4: 0 to 3 faulty nodes) under two traffic patterns.
    let dir = tempfile::tempdir().unwrap();
    let torus = ["--topology", "torus", "--k", "4", "--n", "2"];
    let mut line = vec!["netsim", "sweep", "--rates", "0.01,0.05", "--cycles", "200"];
    line.extend(torus);
    line.extend([
        "--vary",
        "traffic=uniform,tornado",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let (status, table, stderr) = kautzgen(&line);
    assert_eq!(status, 0, "{stderr}");
    assert!(
        table.contains("\n| 4-ary 2-cube, bidirectional (tornado) | 3 | 0.05 | "),
        "{table}"
    );
    let rows = sweep_rows(dir.path());
    assert_eq!(rows.len(), 2 * 4 * 2);
    for (i, row) in rows.iter().enumerate() {
        let (traffic, faults, rate) = (
            ["uniform", "tornado"][i / 8],
            (i / 2) % 4,
            ["0.01", "0.05"][i % 2],
        );
        let spec = match traffic {
            "uniform" => "--topology torus --k 4 --n 2 --cycles 200".to_string(),
            t => format!("--topology torus --k 4 --n 2 --traffic {t} --cycles 200"),
        };
        assert_eq!(
            [&row["network"], &row["faults"], &row["rate"]],
            [&spec, &faults.to_string(), rate]
        );
        let mut single = vec!["--rate", rate, "--cycles", "200", "--traffic", traffic];
        let faults = faults.to_string();
        single.extend(torus);
        single.extend(["--random-faulty-nodes", &faults]);
        let s = single_run(&single);
        for name in COMPARED {
            let value: f64 = row[name].parse().unwrap();
            assert!(close(value, figure(&s, name)), "{name} of {row:?}");
            assert_eq!(row[&format!("{name}_ci95")], "", "one seed, no interval");
        }
    }
    // The latency axis is logarithmic, its decades labelled; the axes say their units.
    let svg = std::fs::read_to_string(dir.path().join("sweep.svg")).unwrap();
    for text in [
        "10",
        "100",
        "1000",
        "mean total latency (cycles)",
        "accepted load (bytes/node/cycle)",
        "offered load (bytes/node/cycle)",
        "first-attempt success (fraction)",
        "3 faulty nodes",
    ] {
        assert!(svg.contains(&format!("\n{text}\n</text>")), "{text}");
    }
}

#[test]
fn a_sweep_with_seeds_reports_the_mean_of_the_single_runs_and_its_interval() {
    let dir = tempfile::tempdir().unwrap();
    let point = [
        "--topology",
        "torus",
        "--k",
        "4",
        "--n",
        "2",
        "--traffic",
        "tornado",
        "--random-faulty-nodes",
        "1",
        "--cycles",
        "200",
    ];
    let mut line = vec!["netsim", "sweep", "--rates", "0.02", "--seeds", "2"];
    line.extend(point);
    line.extend(["--out", dir.path().to_str().unwrap()]);
    let (status, table, stderr) = kautzgen(&line);
    assert_eq!(status, 0, "{stderr}");
    assert!(table.starts_with("Means over 2 seeds"), "{table}");
    let rows = sweep_rows(dir.path());
    // A fault option turns the sweep of fault counts off: one point.
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(
        [&row["network"], &row["faults"], &row["seeds"]],
        [
            "--topology torus --k 4 --n 2 --traffic tornado --random-faulty-nodes 1 --cycles 200 --seeds 2",
            "1",
            "2"
        ]
    );
    let runs: Vec<serde_json::Value> = ["1", "2"]
        .iter()
        .map(|seed| {
            let mut single = vec!["--rate", "0.02", "--seed", seed];
            single.extend(point);
            single_run(&single)
        })
        .collect();
    for name in COMPARED {
        let (a, b) = (figure(&runs[0], name), figure(&runs[1], name));
        assert!(close(row[name].parse().unwrap(), (a + b) / 2.0), "{name}");
        // Two runs: s = |a - b| / sqrt 2, so t(0.975, 1) s / sqrt 2 = 12.706 |a - b| / 2.
        let half_width: f64 = row[&format!("{name}_ci95")].parse().unwrap();
        assert!(
            (half_width - 12.706 * (a - b).abs() / 2.0).abs() < 1e-9,
            "{name}"
        );
    }
}

#[test]
fn a_bad_vary_is_refused_in_one_line_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    for (vary, message) in [
        (
            "trafic=uniform",
            "--vary trafic=uniform: unexpected argument '--trafic' found",
        ),
        (
            "traffic=uniform,bogus",
            "--vary traffic=bogus: invalid value 'bogus' for '--traffic <TRAFFIC>'",
        ),
        (
            "message-bytes=4;0,8@0.5",
            "--vary message-bytes=0,8@0.5: message bytes '0,8@0.5' is not N, LO..HI or SHORT,LONG@P with 1 <= LO <= HI <= 255 and 0 <= P <= 1",
        ),
        (
            "flow=nack,nack",
            "the grid has the network '--d 2 --k 3 --cycles 500' twice: a --vary repeats a value",
        ),
    ] {
        let (status, stdout, stderr) = sweep(dir.path(), &["--vary", vary]);
        assert_eq!((status, stdout.as_str()), (2, ""), "{vary}: {stderr}");
        assert_eq!(stderr, format!("error: {message}\n"), "{vary}");
    }
}

/// `--faults` counted faulty nodes in `netsim` but faulty links in `netsim torus`: the
/// counts are named for what they draw, and the old name is refused in both.
#[test]
fn random_fault_counts_say_what_they_draw() {
    let (code, _, stderr) = kautzgen(&[
        "netsim", "--d", "2", "--k", "3", "--rate", "0.1", "--cycles", "10", "--faults", "1",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: unexpected argument '--faults' found"));
    let (code, _, stderr) = kautzgen(&[
        "netsim", "torus", "--k", "2", "--n", "2", "--rate", "0.1", "--cycles", "10", "--faults",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(stderr.starts_with("error: unexpected argument '--faults' found"));
    let (code, stdout, _) = kautzgen(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0.1",
        "--cycles",
        "10",
        "--random-faulty-nodes",
        "1",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\"healthy_nodes\":11"), "{stdout}");
    let (code, _, stderr) = kautzgen(&[
        "netsim",
        "torus",
        "--k",
        "2",
        "--n",
        "2",
        "--algo",
        "e-cube",
        "--rate",
        "0.1",
        "--cycles",
        "10",
        "--random-faulty-links",
        "1",
    ]);
    assert_eq!((code, stderr.as_str()), (0, ""));
}

/// The healthy position of a node of the 4-ary 2-cube named "a,b" (index 4a + b) when node
/// 1,1 (index 5) is faulty.
fn position_without_5(name: &str) -> usize {
    let (a, b) = name.split_once(',').unwrap();
    let index = 4 * a.parse::<usize>().unwrap() + b.parse::<usize>().unwrap();
    assert_ne!(index, 5, "the faulty node sends and receives nothing");
    if index > 5 { index - 1 } else { index }
}

#[test]
fn a_fixed_pattern_sends_each_healthy_position_to_its_partner() {
    // 15 healthy positions: bit-complement sends p to 14 - p (position 7, node 2,0, to
    // itself: it makes no message); tornado sends p to p + 7 mod 15.
    for (pattern, partner, idle) in [
        ("bit-complement", (|p| 14 - p) as fn(usize) -> usize, 1),
        ("tornado", |p| (p + 7) % 15, 0),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("t.jsonl");
        let (status, json, stderr) = kautzgen(&[
            "netsim",
            "--topology",
            "torus",
            "--k",
            "4",
            "--n",
            "2",
            "--traffic",
            pattern,
            "--faulty-node",
            "1,1",
            "--rate",
            "0.05",
            "--cycles",
            "300",
            "--format",
            "json",
            "--trace",
            trace.to_str().unwrap(),
        ]);
        assert_eq!(status, 0, "{stderr}");
        let s: serde_json::Value = common::netsim_json(&json);
        assert_eq!(s.get("idle_nodes").map_or(0, |v| v.as_u64().unwrap()), idle);
        let lines = std::fs::read_to_string(&trace).unwrap();
        let mut senders = std::collections::BTreeSet::new();
        for line in lines.lines() {
            let m: serde_json::Value = serde_json::from_str(line).unwrap();
            let (src, dst) = (m["src"].as_str().unwrap(), m["dst"].as_str().unwrap());
            let p = position_without_5(src);
            assert_eq!(position_without_5(dst), partner(p), "{pattern}: {line}");
            senders.insert(p);
        }
        assert_eq!(
            senders.len(),
            15 - idle as usize,
            "{pattern}: every other position sends"
        );
    }
}

#[test]
fn a_traffic_file_is_replayed_message_for_message() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("in.txt");
    std::fs::write(
        &file,
        "# CYCLE SOURCE DESTINATION BYTES\n0 010 121 16\n\n0 121 010 4  # back\n7 201 010 1\n",
    )
    .unwrap();
    let trace = dir.path().join("out.jsonl");
    let (status, text, stderr) = kautzgen(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--traffic-file",
        file.to_str().unwrap(),
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(status, 0, "{stderr}");
    // No traffic of its own (rate 0), injection up to the last message's cycle.
    assert!(text.starts_with(
        "K(2,3): 12 nodes, 12 healthy; uniform traffic at rate 0 for 8 cycles, 16 bytes a message, seed 1\n\
         3 messages placed by hand (--message, --traffic-file) besides the traffic's\n\
         injected               3\n"
    ), "{text}");
    let mut made: Vec<(u64, u64, String, String, u64)> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| {
            let m: serde_json::Value = serde_json::from_str(l).unwrap();
            let word = |v: &serde_json::Value| {
                v.as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<String>()
            };
            let n = |k: &str| m[k].as_u64().unwrap();
            (
                n("id"),
                n("inject"),
                word(&m["src"]),
                word(&m["dst"]),
                n("bytes"),
            )
        })
        .collect();
    made.sort();
    let expected = [
        (0, 0, "010", "121", 16),
        (1, 0, "121", "010", 4),
        (2, 7, "201", "010", 1),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|&(i, c, s, d, b)| (i, c, s.to_string(), d.to_string(), b))
        .collect();
    assert_eq!(made, expected);
    for (content, message) in [
        (
            "0 010 010 4\n",
            "line 1: a message from 010 to 010: source and destination are the same node",
        ),
        (
            "# x\n0 010 012\n",
            "line 2: '0 010 012' is not CYCLE SOURCE DESTINATION BYTES",
        ),
        ("x 010 012 4\n", "line 1: cycle 'x' is not a number"),
        ("0 010 012 0\n", "line 1: bytes '0' is not 1 to 255"),
        (
            "0 010 012 20\n",
            "line 1: a message from 010 to 012: its byte count is not 1 to max bytes",
        ),
    ] {
        std::fs::write(&file, content).unwrap();
        let (status, _, stderr) = kautzgen(&[
            "netsim",
            "--d",
            "2",
            "--k",
            "3",
            "--traffic-file",
            file.to_str().unwrap(),
        ]);
        assert_eq!(
            (status, stderr),
            (2, format!("error: {}: {message}\n", file.display()))
        );
    }
}

/// A Netrace trace as its format has it, little-endian and packed: a 72-byte header (magic
/// number, version 1.0, benchmark name in 30 bytes, 64 nodes, a pad byte, 100 cycles, 5
/// packets, no notes, no regions, 8 bytes of padding), then per packet its cycle, id,
/// address, type, source, destination, node types, dependency count and dependencies.
fn netrace_trace() -> Vec<u8> {
    let mut b = 0x484A_5455u32.to_le_bytes().to_vec();
    b.extend(1.0f32.to_le_bytes());
    let mut name = b"tiny_64c".to_vec();
    name.resize(30, 0);
    b.extend(name);
    b.extend([64, 0]);
    for field in [100u64, 5] {
        b.extend(field.to_le_bytes());
    }
    b.extend([0; 16]);
    let mut packet = |cycle: u64, id: u32, kind: u8, src: u8, dst: u8, deps: &[u32]| {
        b.extend(cycle.to_le_bytes());
        b.extend(id.to_le_bytes());
        b.extend(0x1000u32.to_le_bytes());
        b.extend([kind, src, dst, 0, deps.len() as u8]);
        for dep in deps {
            b.extend(dep.to_le_bytes());
        }
    };
    // A read request (type 1, 8 bytes), its response (2, 72), a request from node 9 to
    // itself, a write request (4, 72), an upgrade request (13, 8).
    packet(0, 0, 1, 0, 63, &[]);
    packet(2, 1, 2, 63, 0, &[0]);
    packet(3, 2, 5, 9, 9, &[]);
    packet(4, 3, 4, 8, 1, &[]);
    packet(10, 4, 13, 5, 6, &[1, 3]);
    b
}

#[test]
fn a_netrace_trace_is_replayed_packet_for_packet_on_the_mesh() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tiny.tra.bz2");
    let mut encoder = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
    encoder.write_all(&netrace_trace()).unwrap();
    std::fs::write(&file, encoder.finish().unwrap()).unwrap();
    let trace = dir.path().join("out.jsonl");
    let mesh = ["netsim", "--topology", "mesh", "--k", "8", "--n", "2"];
    let (status, text, stderr) = kautzgen(
        &[
            &mesh[..],
            &[
                "--traffic-file",
                file.to_str().unwrap(),
                "--max-bytes",
                "72",
            ],
            &["--trace", trace.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(status, 0, "{stderr}");
    assert!(text.starts_with(
        "8-ary 2-mesh: 64 nodes, 64 healthy; uniform traffic at rate 0 for 11 cycles, 16 bytes a message, seed 1\n\
         4 messages placed by hand (--message, --traffic-file) besides the traffic's\n\
         Netrace trace tiny_64c: 64 nodes, 100 cycles, 5 packets, 1 of them from a node to itself not replayed\n\
         injected               4\n\
         delivered              4\n"
    ), "{text}");
    // Netrace's node i is the mesh's node of index i: i / 8, i % 8.
    let mut made: Vec<(u64, String, String, u64)> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| {
            let m: serde_json::Value = serde_json::from_str(l).unwrap();
            let name = |k: &str| m[k].as_str().unwrap().to_string();
            let n = |k: &str| m[k].as_u64().unwrap();
            (n("inject"), name("src"), name("dst"), n("bytes"))
        })
        .collect();
    made.sort();
    let expected = [
        (0, "0,0", "7,7", 8),
        (2, "7,7", "0,0", 72),
        (4, "1,0", "0,1", 72),
        (10, "0,5", "0,6", 8),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|&(c, s, d, b)| (c, s.to_string(), d.to_string(), b))
        .collect();
    assert_eq!(made, expected);
}

#[test]
fn a_netrace_trace_that_cannot_be_replayed_is_refused_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tiny.tra");
    let path = file.to_str().unwrap();
    let mut cut = netrace_trace();
    cut.truncate(80);
    for (bytes, extra, message) in [
        (
            netrace_trace(),
            &["--k", "8"][..],
            "its packets of 72 bytes are longer than --max-bytes 16: give --max-bytes 72",
        ),
        (
            netrace_trace(),
            &["--k", "4", "--max-bytes", "72"][..],
            "the trace is of 64 nodes, more than this network's 16",
        ),
        (
            cut,
            &["--k", "8", "--max-bytes", "72"][..],
            "truncated at byte 72: 21 bytes of packet record expected, 8 found",
        ),
    ] {
        std::fs::write(&file, bytes).unwrap();
        let args = [
            &[
                "netsim",
                "--topology",
                "mesh",
                "--n",
                "2",
                "--traffic-file",
                path,
            ][..],
            extra,
        ]
        .concat();
        let (status, _, stderr) = kautzgen(&args);
        assert_eq!((status, stderr), (2, format!("error: {path}: {message}\n")));
    }
}

#[test]
fn hops_and_attempts_are_counted_per_message() {
    // From 010: 101 is one shift away, 121 three (010 -> 101 -> 012 -> 121). The two go one
    // after the other from the same source, alone in the network: each on its first route.
    let (status, json, stderr) = kautzgen(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0",
        "--cycles",
        "0",
        "--message",
        "010:101",
        "--message",
        "010:121",
        "--format",
        "json",
    ]);
    assert_eq!(status, 0, "{stderr}");
    let s: serde_json::Value = common::netsim_json(&json);
    assert_eq!(
        s["hops"],
        serde_json::json!({"mean": 2.0, "counts": [
            {"hops": 1, "messages": 1},
            {"hops": 2, "messages": 0},
            {"hops": 3, "messages": 1}
        ]})
    );
    assert_eq!(
        s["attempts"],
        serde_json::json!([{"attempts": 1, "delivered": 2, "failed": 0}])
    );
}

#[test]
fn load_is_in_bytes_per_node_per_cycle_against_the_capacity() {
    // K(2,3): 24 links. From a node aba (010, 020, 101, 121, 202, 212) 2 nodes are 1 hop
    // away, 3 are 2 and 6 are 3: 26 hops over 11 nodes; from a node abc 2, 4 and 5: 25.
    // The mean distance is (6 x 26 + 6 x 25) / (12 x 11) = 306 / 132, and the capacity
    // 24 / (12 x 306 / 132) = 44 / 51 bytes per node per cycle.
    let json = common::netsim_run;
    let s = json(&[
        "netsim", "--d", "2", "--k", "3", "--rate", "0.001", "--cycles", "100", "--format", "json",
    ]);
    let capacity = s["load"]["capacity"].as_f64().unwrap();
    assert!((capacity - 44.0 / 51.0).abs() < 1e-12, "{capacity}");
    // Switches that route drop nothing without faults: below saturation every message made
    // in the window arrives, but for those still on their way when it closes (a few cycles'
    // worth of 20,000). The 4-ary 2-cube's capacity is above the injection link's 1.
    let s = json(&[
        "netsim",
        "--topology",
        "torus",
        "--k",
        "4",
        "--n",
        "2",
        "--routing",
        "e-cube",
        "--message-bytes",
        "16",
        "--rate",
        "0.005",
        "--cycles",
        "20000",
        "--format",
        "json",
    ]);
    let l = &s["load"];
    let (offered, accepted) = (
        l["offered"].as_f64().unwrap(),
        l["accepted"].as_f64().unwrap(),
    );
    assert_eq!(l["capacity"], 1.0);
    // 0.005 messages of 16 bytes: 0.08 bytes per node per cycle offered on average.
    assert!((offered - 0.08).abs() < 0.004, "{offered}");
    assert!(
        accepted <= offered && offered - accepted < 0.002,
        "{offered} {accepted}"
    );
    assert!((l["offered_messages"].as_f64().unwrap() * 16.0 - offered).abs() < 1e-12);
}

#[test]
fn a_measured_run_counts_its_window_and_knows_when_it_is_unstable() {
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut line = vec!["netsim", "--format", "json"];
        line.extend(extra);
        common::netsim_run(&line)
    };
    // Below saturation (7% of the capacity) the window's accepted load is its offered
    // load but for the messages on their way as it opens and closes, and every message of
    // the window ends soon after it.
    let s = json(&[
        "--topology",
        "torus",
        "--k",
        "4",
        "--n",
        "2",
        "--routing",
        "e-cube",
        "--message-bytes",
        "16",
        "--rate",
        "0.005",
        "--warmup",
        "2000",
        "--cycles",
        "20000",
    ]);
    let m = &s["measurement"];
    assert_eq!(
        (&m["warmup"], &m["window"], &m["unstable"]),
        (&2000.into(), &20000.into(), &false.into())
    );
    assert!(m["drained"].as_u64().unwrap() < 100, "{m}");
    let (o, a) = (
        s["load"]["offered"].as_f64().unwrap(),
        s["load"]["accepted"].as_f64().unwrap(),
    );
    assert!((a - o).abs() < 0.01 * o, "offered {o}, accepted {a}");
    assert_eq!(s["throughput"], s["load"]["accepted"]);
    assert_eq!(s["injected"], s["delivered"]);
    // K(2,3) under nack saturates near 0.1 bytes per node per cycle: at 0.05 messages of
    // 16 bytes (0.8 offered) the window's messages cannot all end within the limit.
    let s = json(&[
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0.05",
        "--warmup",
        "500",
        "--cycles",
        "2000",
        "--drain-limit",
        "1000",
    ]);
    let m = &s["measurement"];
    assert_eq!(
        (&m["unstable"], &m["drained"]),
        (&true.into(), &1000.into())
    );
    assert!(m["unfinished"].as_u64().unwrap() > 0);
    assert_eq!(
        s.get("latency"),
        None,
        "an unstable run's latencies are not averaged"
    );
    assert_eq!(s["mean_latency"], serde_json::Value::Null);
    let accepted = s["load"]["accepted"].as_f64().unwrap();
    assert!(accepted < 0.25 * s["load"]["offered"].as_f64().unwrap());
    // A run without a warm-up is not a measured one.
    let s = json(&["--d", "2", "--k", "3", "--rate", "0.01", "--cycles", "500"]);
    assert_eq!(s.get("measurement"), None);
    let (status, _, stderr) = kautzgen(&[
        "netsim",
        "--d",
        "2",
        "--k",
        "3",
        "--rate",
        "0.01",
        "--cycles",
        "500",
        "--drain-limit",
        "9",
    ]);
    assert_eq!(status, 2);
    assert!(stderr.contains("--warmup"), "{stderr}");
}

#[test]
fn fairness_is_the_least_and_the_most_a_node_offers_and_accepts() {
    let load = |pattern: &str| -> serde_json::Value {
        let (status, out, err) = kautzgen(&[
            "netsim",
            "--d",
            "2",
            "--k",
            "3",
            "--traffic",
            pattern,
            "--rate",
            "0.01",
            "--cycles",
            "5000",
            "--format",
            "json",
        ]);
        assert_eq!(status, 0, "{err}");
        common::netsim_json(&out)["load"].clone()
    };
    // Bit-reversal on twelve nodes leaves six idle, and as it is its own inverse they are
    // sent nothing either: the least a node offers and accepts is 0.
    let l = load("bit-reversal");
    assert_eq!(
        (
            l["offered_per_node"][0].as_f64(),
            l["accepted_per_node"][0].as_f64()
        ),
        (Some(0.0), Some(0.0))
    );
    assert!(l["offered_per_node"][1].as_f64().unwrap() > 0.1);
    // Under uniform traffic every node offers and is handed something, about the mean.
    let l = load("uniform");
    let [lo, hi] = [0, 1].map(|i| l["offered_per_node"][i].as_f64().unwrap());
    let mean = l["offered"].as_f64().unwrap();
    assert!(0.0 < lo && lo <= mean && mean <= hi, "{l}");
    assert!(l["accepted_per_node"][0].as_f64().unwrap() > 0.0, "{l}");
}

#[test]
fn seeds_repeat_a_point_and_give_means_with_their_confidence() {
    let base = [
        "netsim", "--d", "2", "--k", "3", "--rate", "0.01", "--cycles", "800",
    ];
    let mut line = base.to_vec();
    line.extend(["--seed", "4", "--seeds", "3", "--format", "json"]);
    let s = common::netsim_run(&line);
    assert_eq!(s["seeds"], serde_json::json!([4, 5, 6]));
    // Each run is the single run of its seed.
    for (i, seed) in ["4", "5", "6"].iter().enumerate() {
        let mut single = base.to_vec();
        single.extend(["--seed", seed, "--format", "json"]);
        let one: serde_json::Value = common::netsim_json(&kautzgen(&single).1);
        for key in ["injected", "delivered", "mean_latency", "load"] {
            assert_eq!(s["runs"][i][key], one[key], "seed {seed}: {key}");
        }
    }
    // Three runs: the half-width is t(0.975, 2) = 4.303 times the sample deviation over
    // the square root of 3.
    let latency = &s["figures"]["mean_latency"];
    let values: Vec<f64> = latency["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let mean = values.iter().sum::<f64>() / 3.0;
    let deviation = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
    assert!((latency["mean"].as_f64().unwrap() - mean).abs() < 1e-9);
    assert!((latency["ci95"].as_f64().unwrap() - 4.303 * deviation / 3f64.sqrt()).abs() < 1e-9);
    for (extra, message) in [
        (&["--seeds", "0"][..], "--seeds must be at least 1, got 0"),
        (
            &["--seeds", "2", "--trace", "t.jsonl"],
            "--trace, --per-link, --heatmap and --histogram show one run: give them without --seeds",
        ),
    ] {
        let mut line = base.to_vec();
        line.extend(extra);
        assert_eq!(
            kautzgen(&line),
            (2, String::new(), format!("error: {message}\n"))
        );
    }
}

#[test]
fn links_count_the_words_they_carry_in_the_window() {
    let links = |line: &[&str]| common::netsim_run(line)["links"].clone();
    // 010 -> 101 is one hop, by letter 1. Its worm has 1 + k + n + 4 = 24 words
    // (docs/network.md); the source's switch takes the first route byte, so the link
    // carries 23 in the 100-cycle window, and none of K(2,3)'s 23 other links carries any.
    let l = links(&[
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
        "010:101",
        "--format",
        "json",
    ]);
    assert_eq!(
        l,
        serde_json::json!({"links": 24, "mean_utilisation": 23.0 / 2400.0,
            "max_utilisation": 0.23, "busiest": "010:1", "nacks": 0, "max_nacks": 0})
    );
    // A 4-flit worm over 0,0 -> 0,1 -> 0,2 on the 4-ary 2-cube (port 1 is +0): 4 flits on
    // each of two of its 64 links in a 10-cycle window.
    let l = links(&[
        "netsim",
        "torus",
        "--k",
        "4",
        "--n",
        "2",
        "--algo",
        "e-cube",
        "--rate",
        "0",
        "--cycles",
        "10",
        "--message",
        "0,0:0,2",
        "--format",
        "json",
    ]);
    assert_eq!(
        (
            &l["links"],
            &l["max_utilisation"],
            &l["mean_utilisation"],
            &l["busiest"]
        ),
        (&64.into(), &0.4.into(), &0.0125.into(), &"0,0:1".into())
    );
}
