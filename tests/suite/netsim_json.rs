//! netsim's JSON describes itself (docs/network.md, "JSON output"): the envelope names its
//! schema and the kautzgen that made it, `config` holds every option with its value,
//! defaults included, every number has a unit in `units`, and the schema
//! (docs/netsim.schema.json), which every test that reads netsim's JSON checks it against,
//! refuses an object that breaks it.

use crate::common;

use common::{kautzgen, netsim_run, netsim_schema_errors};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// `kautzgen` with `args`, which succeeds: its JSON, checked against the schema.
#[test]
fn the_config_holds_every_default() {
    let args = [
        "netsim", "--d", "2", "--k", "3", "--rate", "0.01", "--cycles", "100", "--format", "json",
    ];
    let s = netsim_run(&args);
    // The defaults as options.rs and mod.rs declare them: --topology kautz, --seed 1,
    // --traffic uniform, --hot-fraction 0.2, --message-bytes 16, --max-bytes 16, no faults,
    // --retry-rounds 1, --arbiter round-robin, --flow nack, no --routing (source routing),
    // no --warmup, no --burst, --seeds 1.
    assert_eq!(
        s["config"],
        json!({
            "topology": {"name": "kautz", "options": "--d 2 --k 3", "network": "K(2,3)", "nodes": 12},
            "routing": {"kind": "source", "algorithm": null, "reading": null, "buffer_flits": null},
            "flow": "nack",
            "arbiter": "round-robin",
            "max_bytes": 16,
            "traffic": {
                "pattern": "uniform",
                "rate": 0.01,
                "message_bytes": {"lo": 16, "hi": 16, "long_fraction": null},
                "hot_fraction": 0.2,
                "burst": null
            },
            "cycles": 100,
            "measure": null,
            "seed": 1,
            "seeds": 1,
            "faults": {"nodes": [], "links": [], "random_nodes": 0, "random_links": 0},
            "retry_rounds": 1,
            "receive": null,
            "messages": [],
            "traffic_file": null,
            "command_line": args,
        })
    );
}

#[test]
fn the_config_holds_every_option_given() {
    let args = [
        "netsim",
        "--topology",
        "torus",
        "--k",
        "4",
        "--n",
        "2",
        "--routing",
        "double-e-cube",
        "--reading",
        "keep",
        "--buffer-flits",
        "3",
        "--rate",
        "0.02",
        "--cycles",
        "50",
        "--warmup",
        "20",
        "--seed",
        "9",
        "--traffic",
        "hotspot",
        "--hot-fraction",
        "0.5",
        "--message-bytes",
        "2,8@0.25",
        "--burst",
        "5,15",
        "--max-bytes",
        "8",
        "--faulty-node",
        "1,1",
        "--faulty-link",
        "0,0:1",
        "--random-faulty-links",
        "2",
        "--format",
        "json",
    ];
    let config = &netsim_run(&args)["config"];
    assert_eq!(
        (&config["topology"], &config["routing"]),
        (
            &json!({"name": "torus", "options": "--topology torus --k 4 --n 2", "network": config["topology"]["network"], "nodes": 16}),
            &json!({"kind": "switch", "algorithm": "double-e-cube", "reading": "keep", "buffer_flits": 3})
        )
    );
    assert_eq!(
        config["traffic"],
        json!({
            "pattern": "hotspot",
            "rate": 0.02,
            "message_bytes": {"lo": 2, "hi": 8, "long_fraction": 0.25},
            "hot_fraction": 0.5,
            "burst": {"on": 5, "off": 15}
        })
    );
    // The drain limit's default is the warm-up plus the window.
    assert_eq!(config["measure"], json!({"warmup": 20, "drain_limit": 70}));
    assert_eq!(
        config["faults"],
        json!({"nodes": ["1,1"], "links": ["0,0:1"], "random_nodes": 0, "random_links": 2})
    );
    assert_eq!(
        (&config["seed"], &config["max_bytes"]),
        (&json!(9), &json!(8))
    );
    // netsim torus names its cube as --topology torus does, with its rings.
    let torus = netsim_run(&[
        "netsim",
        "torus",
        "--k",
        "3",
        "--n",
        "2",
        "--algo",
        "e-cube",
        "--rate",
        "0.01",
        "--cycles",
        "10",
        "--message",
        "0,0:0,2",
        "--format",
        "json",
    ]);
    assert_eq!(
        (
            &torus["config"]["topology"]["options"],
            &torus["config"]["routing"],
            &torus["config"]["messages"],
        ),
        (
            &json!("--topology torus --k 3 --n 2 --rings bi"),
            &json!({"kind": "switch", "algorithm": "e-cube", "reading": "reselect", "buffer_flits": 2}),
            &json!(["0,0:0,2"]),
        )
    );
}

#[test]
fn the_envelope_names_the_schema_and_kautzgen() {
    let line = [
        "netsim", "--d", "2", "--k", "3", "--rate", "0.01", "--cycles", "100", "--seeds", "2",
        "--format", "json",
    ];
    let s = netsim_run(&line);
    assert_eq!(
        (&s["schema"], &s["schema_version"], &s["kind"]),
        (&json!("kautzgen-netsim"), &json!(2), &json!("seeds"))
    );
    assert_eq!(s["kautzgen"]["version"], env!("CARGO_PKG_VERSION"));
    let commit = s["kautzgen"]["commit"].as_str().unwrap();
    assert!(
        commit == "unknown" || commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
        "{commit}"
    );
    assert_eq!(s["config"]["seeds"], 2);
    // No wall time, and the options that do not change the result left out of the command
    // line: the same run writes the same JSON, byte for byte.
    let mut quietly = line.to_vec();
    quietly.push("--quiet");
    assert_eq!(kautzgen(&quietly).1, kautzgen(&line).1);
    assert_eq!(s["config"]["command_line"], json!(line));
}

/// The paths of every number in `value`, keys joined by dots, array indices dropped.
fn number_paths(value: &Value, path: &str, paths: &mut BTreeSet<String>) {
    match value {
        Value::Number(_) => {
            paths.insert(path.to_string());
        }
        Value::Array(items) => items.iter().for_each(|v| number_paths(v, path, paths)),
        Value::Object(map) => {
            for (key, v) in map {
                let path = match path {
                    "" => key.clone(),
                    _ => format!("{path}.{key}"),
                };
                number_paths(v, &path, paths);
            }
        }
        _ => {}
    }
}

/// Numbers that name rather than measure: the schema's version, seeds, the worms of a
/// deadlock.
const NAMES: [&str; 5] = [
    "schema_version",
    "config.seed",
    "seeds",
    "routing.wait_cycle.worm",
    "routing.wait_cycle.held_by",
];

/// Every unit `units` may give.
const UNITS: [&str; 22] = [
    "ACKs",
    "NACKs",
    "attempts",
    "bytes",
    "bytes/cycle",
    "bytes/node/cycle",
    "cycles",
    "flits",
    "fraction",
    "hops",
    "links",
    "messages",
    "messages/node/cycle",
    "nodes",
    "packets",
    "rounds",
    "runs",
    "seconds",
    "times the zero-load latency",
    "words",
    "words/cycle",
    "worms",
];

#[test]
fn every_number_has_a_unit() {
    let k23 = ["netsim", "--format", "json", "--d", "2", "--k", "3"];
    let runs: [&[&str]; 5] = [
        // Faults, retries, hot spot, bursts, bimodal lengths, every link.
        &[
            "--rate",
            "0.02",
            "--cycles",
            "300",
            "--faulty-node",
            "010",
            "--faulty-link",
            "012:1",
            "--random-faulty-links",
            "1",
            "--retry-rounds",
            "2",
            "--traffic",
            "hotspot",
            "--burst",
            "20,20",
            "--message-bytes",
            "4,16@0.5",
            "--per-link",
        ],
        // A measured run; idle nodes.
        &[
            "--rate",
            "0.01",
            "--cycles",
            "200",
            "--warmup",
            "100",
            "--traffic",
            "transpose",
        ],
        // Acknowledged delivery.
        &["--rate", "0.02", "--cycles", "300", "--flow", "vct"],
        // Repeated runs.
        &["--rate", "0.01", "--cycles", "200", "--seeds", "3"],
        // Nothing made: no latency, no load.
        &["--rate", "0", "--cycles", "0"],
    ];
    let mut outputs: Vec<Value> = runs
        .iter()
        .map(|extra| netsim_run(&[&k23[..], extra].concat()))
        .collect();
    // A saturation search.
    outputs.push(netsim_run(&[
        "netsim", "saturate", "--d", "2", "--k", "3", "--cycles", "300", "--format", "json",
    ]));
    // Switches that route.
    outputs.push(netsim_run(&[
        "netsim",
        "--topology",
        "torus",
        "--k",
        "4",
        "--n",
        "2",
        "--routing",
        "e-cube",
        "--rate",
        "0.02",
        "--cycles",
        "100",
        "--format",
        "json",
    ]));
    // A deadlock, and its wait cycle (docs/torus.md).
    let mut deadlock = vec![
        "netsim",
        "torus",
        "--k",
        "5",
        "--n",
        "2",
        "--algo",
        "e-cube",
        "--rate",
        "0",
        "--cycles",
        "0",
        "--message-flits",
        "2",
        "--format",
        "json",
    ];
    for m in ["0,0:0,2", "0,1:0,3", "0,2:0,4", "0,3:0,0", "0,4:0,1"] {
        deadlock.extend(["--message", m]);
    }
    outputs.push(netsim_run(&deadlock));
    assert_eq!(outputs.last().unwrap()["routing"]["deadlock"], true);
    for s in &outputs {
        let units = s["units"].as_object().unwrap();
        for (path, unit) in units {
            let unit = unit.as_str().unwrap();
            assert!(UNITS.contains(&unit), "{path}: unknown unit {unit}");
        }
        let mut paths = BTreeSet::new();
        number_paths(s, "", &mut paths);
        for path in paths {
            let name =
                NAMES.contains(&path.as_str()) || NAMES.iter().any(|n| path == format!("runs.{n}"));
            assert!(
                name || units.contains_key(&path),
                "{}: {path} has no unit",
                s["config"]["command_line"]
            );
        }
    }
}

#[test]
fn the_schema_refuses_what_breaks_it() {
    let valid = netsim_run(&[
        "netsim", "--d", "2", "--k", "3", "--rate", "0.01", "--cycles", "100", "--format", "json",
    ]);
    assert_eq!(netsim_schema_errors(&valid), Ok(()));
    let broken = |change: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut s = valid.clone();
        change(s.as_object_mut().unwrap());
        netsim_schema_errors(&s).expect_err(&format!("{s}"))
    };
    let errors = broken(&|s| {
        s.remove("config");
    });
    assert!(errors.contains("missing properties 'config'"), "{errors}");
    broken(&|s| {
        s.insert("schema_version".into(), json!(1));
    });
    broken(&|s| {
        s.insert("injected".into(), json!("many"));
    });
    broken(&|s| {
        s.insert("an_undocumented_figure".into(), json!(1));
    });
    broken(&|s| {
        s["config"]["traffic"]
            .as_object_mut()
            .unwrap()
            .remove("rate");
    });
}
