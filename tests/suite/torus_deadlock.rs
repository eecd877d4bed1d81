//! `kautzgen torus deadlock` and `deadlock-sweep` on cases derived by hand: an acyclic
//! channel dependency graph, an e-cube ring cycle, direction-first's cycle in the 5-ary
//! 3-cube with every dependency walked by a golden route, the messages of those cycles
//! placed in the wormhole simulator (`--simulate`), and the refusals of bad input.

use crate::common;

use common::kautzgen;
use kautzgen::routing::torus::{Algorithm, Reading, Router};
use kautzgen::routing::torus_cdg::ChannelGraph;
use kautzgen::topology::torus::{Faults, Link, Torus};

const ACYCLIC: &str = "acyclic\nno cycle of channel dependencies: this routing relation is \
deadlock-free by the Dally-Seitz condition (wormhole, no virtual channels)\n";
const CYCLIC: &str = "each channel's message may wait for the next: deadlock is possible for \
deterministic routing; for adaptive routing a cycle is not proof of deadlock (Duato)\n";

fn deadlock(k: &str, n: &str, algo: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec!["torus", "deadlock", "--k", k, "--n", n, "--algo", algo];
    args.extend_from_slice(extra);
    kautzgen(&args)
}

#[test]
fn e_cube_on_the_3_ary_2_cube_is_acyclic() {
    // k = 3: every ring distance is 1, so e-cube makes at most one hop per dimension, in
    // increasing dimension order: a channel of dimension 0 can only be followed by one of
    // dimension 1 (either way round), which is the last. Ordering channels by dimension
    // makes every dependency go up: acyclic. Dependencies: each of the 18 dimension-0
    // channels may be followed by the +1 or the -1 link of the node it reaches: 36.
    let (status, stdout, stderr) = deadlock("3", "2", "e-cube", &[]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        format!("e-cube on the 3-ary 2-cube: 36 channels, 36 dependencies\n{ACYCLIC}")
    );
}

#[test]
fn e_cube_on_the_4_ary_2_cube_is_acyclic_by_its_tie_rule() {
    // k = 4: distance 2 is a tie, which goes the mesh way, so two hops the same way in a
    // ring are 0 -> 1 -> 2 and 1 -> 2 -> 3 (+) or 3 -> 2 -> 1 and 2 -> 1 -> 0 (-): no
    // dependency leaves the link into digit 2 (+) or 1 (-), and no ring closes. Per ring
    // and direction 2 dependencies, 8 rings of each dimension: 2 * 2 * 8 = 32; each of the
    // 32 dimension-0 channels may then turn to +1 or -1: 64. Total 96.
    let (status, stdout, _) = deadlock("4", "2", "e-cube", &[]);
    assert_eq!(status, 0);
    assert_eq!(
        stdout,
        format!("e-cube on the 4-ary 2-cube: 64 channels, 96 dependencies\n{ACYCLIC}")
    );
}

#[test]
fn e_cube_on_the_5_ary_2_cube_closes_its_first_ring() {
    // k = 5: s -> s+1 -> s+2 is an e-cube route for every s (2 < 5/2), so the + links of
    // each ring of dimension 0 form a cycle. The lowest channel, 0,0:+0, lies on it; a
    // message on it may continue +0 or turn into dimension 1, which e-cube never leaves
    // for dimension 0, so the shortest cycle through it is its ring. Dependencies: every
    // dimension-0 channel may continue or turn +1 or -1 (3 * 50), every dimension-1
    // channel only continue (50): 200.
    // E-cube allows one port per state, so every dependency is forced and the forced
    // cycle is the same ring.
    const RING: &str = "0,0:+0 -> 0,1:+0 -> 0,2:+0 -> 0,3:+0 -> 0,4:+0 -> 0,0:+0";
    let (status, stdout, _) = deadlock("5", "2", "e-cube", &[]);
    assert_eq!(status, 0);
    assert_eq!(
        stdout,
        format!(
            "e-cube on the 5-ary 2-cube: 100 channels, 200 dependencies\ncycle of 5 channels\n\
             {RING}\n{CYCLIC}forced cycle of 5 channels (each message on it has no other \
             port): a deadlock\n{RING}\n"
        )
    );
    // The same relation for double e-cube, which routes as e-cube does.
    let (_, double, _) = deadlock("5", "2", "double-e-cube", &[]);
    assert_eq!(double, stdout.replacen("e-cube", "double-e-cube", 1));
}

#[test]
fn a_fault_on_the_ring_moves_the_witness_and_strands_messages() {
    // With 0,0:+0 faulty the first ring's + cycle is broken; the - ring of row 0 is still
    // a cycle (the same argument, mirrored), and its first channel 0,0:-0 is now the
    // lowest on a cycle. Dependencies: the 4 into or out of 0,0:+0 go (0,4:+0 -> 0,0:+0;
    // 0,0:+0 -> +0, +1, -1): 196. Stranded: a message holding a channel that must take
    // 0,0:+0 came over 0,4:+0 (e-cube corrects dimension 0 first) from source 0,4 to a
    // destination with x0 = 1 (from 0,3 the + way is 3 hops, so it goes -): 5 destinations.
    let (status, stdout, _) = deadlock(
        "5",
        "2",
        "e-cube",
        &["--faulty-link", "0,0:+0", "--format", "json"],
    );
    assert_eq!(status, 0);
    assert_eq!(
        stdout,
        concat!(
            r#"{"k":5,"n":2,"algo":"e-cube","faulty_links":["0,0:+0"],"faulty_nodes":[],"#,
            r#""channels":100,"dependencies":196,"stranded_states":5,"forced_dependencies":196,"#,
            r#""acyclic":false,"cycle":["0,0:-0","0,4:-0","0,3:-0","0,2:-0","0,1:-0"],"#,
            r#""forced_cycle":["0,0:-0","0,4:-0","0,3:-0","0,2:-0","0,1:-0"]}"#,
            "\n"
        )
    );
}

/// Links as the golden route walks them, NODE:PORT, source first.
fn route_links(router: &Router, src: &str, dst: &str, faulty: &[&str]) -> Vec<String> {
    let torus = router.torus();
    let mut faults = Faults::new();
    for link in faulty {
        faults.insert_link(torus.parse_link(link).unwrap());
    }
    let route = router
        .route(
            &torus.parse_node(src).unwrap(),
            &torus.parse_node(dst).unwrap(),
            &faults,
        )
        .unwrap();
    assert!(route.delivered());
    route
        .hops
        .iter()
        .filter_map(|hop| match hop.decision.action {
            kautzgen::routing::torus::Action::Forward(port) => Some(format!("{}:{port}", hop.node)),
            _ => None,
        })
        .collect()
}

#[test]
fn direction_first_on_the_5_ary_3_cube_has_a_cycle_through_two_wraparounds() {
    // Theorem 5.1 fails here. Each dependency of the witness is a golden route, chosen by
    // hand (nodes x2,x1,x0; a faulty link stands in for a busy one, which the router
    // cannot tell apart):
    // - 0,0,0 -> 0,0,3: only dimension 0 is wrong, pair (0, 2) is new, so the first hop
    //   may wrap: -0 to 0,0,4 (2 hops instead of 3), then -0 to 0,0,3.
    // - 0,0,4 -> 0,0,2, 0,0,3 -> 0,0,1, 0,0,2 -> 0,0,0: west along the mesh (a wrap would
    //   not be shorter).
    // - 0,0,1 -> 0,3,0: west to 0,0,0 in pair (0, 1); there dimension 0 is right, the pair
    //   becomes (1, 0), a first hop again: -1 wraps to 0,4,0 and goes on to 0,3,0.
    // - 0,4,0 -> 0,2,0, 0,3,0 -> 0,1,0, 0,2,0 -> 0,0,0: west along the mesh in dimension 1.
    // - 0,1,0 -> 1,0,3 with -0 and +0 busy at 0,1,0: pair (0, 1), the router falls back to
    //   its Y move -1 to 0,0,0, where dimension 1 is right and the pair (0, 2) is new: the
    //   first hop in that torus wraps -0 to 0,0,4.
    let torus = Torus::new(5, 3).unwrap();
    let router = Router::new(torus, Algorithm::DirectionFirst).unwrap();
    let walks = [
        route_links(&router, "0,0,0", "0,0,3", &[]),
        route_links(&router, "0,0,4", "0,0,2", &[]),
        route_links(&router, "0,0,3", "0,0,1", &[]),
        route_links(&router, "0,0,2", "0,0,0", &[]),
        route_links(&router, "0,0,1", "0,3,0", &[]),
        route_links(&router, "0,4,0", "0,2,0", &[]),
        route_links(&router, "0,3,0", "0,1,0", &[]),
        route_links(&router, "0,2,0", "0,0,0", &[]),
        route_links(&router, "0,1,0", "1,0,3", &["0,1,0:-0", "0,1,0:+0"]),
    ];
    let cycle = [
        "0,0,0:-0", "0,0,4:-0", "0,0,3:-0", "0,0,2:-0", "0,0,1:-0", "0,0,0:-1", "0,4,0:-1",
        "0,3,0:-1", "0,2,0:-1", "0,1,0:-1",
    ];
    for (i, link) in cycle.iter().enumerate() {
        let next = cycle[(i + 1) % cycle.len()];
        let walked = walks
            .iter()
            .any(|walk| walk.windows(2).any(|w| w[0] == *link && w[1] == next));
        assert!(walked, "{link} -> {next}");
    }
    let witness = format!("{} -> {}", cycle.join(" -> "), cycle[0]);
    let (status, stdout, _) = deadlock("5", "3", "direction-first", &[]);
    assert_eq!(status, 0);
    let expected = format!(
        "direction-first on the 5-ary 3-cube: 750 channels, 2750 dependencies\n\
         cycle of 10 channels\n{witness}\n{CYCLIC}"
    );
    assert!(stdout.starts_with(&expected), "{stdout}");
    // The two dependencies into wraparounds leave the mesh way open (+1 at 0,0,0; +0 and
    // the Y move +2 for the message to 1,0,3): not forced, so this cycle alone proves no
    // deadlock. With those three links faulty every dependency of the cycle is forced (the
    // others are hops in a message's last incorrect dimension after its first hop there),
    // and it is the shortest through 0,0,0:-0 because the full graph has none shorter.
    let (status, stdout, _) = deadlock(
        "5",
        "3",
        "direction-first",
        &[
            "--faulty-link",
            "0,0,0:+0",
            "--faulty-link",
            "0,0,0:+1",
            "--faulty-link",
            "0,0,0:+2",
        ],
    );
    assert_eq!(status, 0);
    assert!(
        stdout.contains(&format!(
            "{CYCLIC}forced cycle of 10 channels (each message on it has no other port): \
             a deadlock\n{witness}\n"
        )),
        "{stdout}"
    );
}

#[test]
fn west_first_is_acyclic() {
    // West-first: only a route's first hop may wrap, and a message at its source holds no
    // channel, so nothing waits for a wraparound; the rest is Glass and Ni's west-first
    // mesh routing, acyclic. The unit tests check the first part on every k.
    for k in ["3", "5", "8"] {
        let (status, stdout, _) = deadlock(k, "2", "west-first", &["--format", "json"]);
        assert_eq!(status, 0);
        assert!(
            stdout.ends_with("\"acyclic\":true,\"cycle\":[],\"forced_cycle\":[]}\n"),
            "{stdout}"
        );
    }
}

#[test]
fn the_sweep_rows_agree_with_single_runs() {
    let (status, whole, _) = kautzgen(&["torus", "deadlock-sweep", "--ks", "3,5", "--ns", "2"]);
    assert_eq!(status, 0);
    let rows: Vec<&str> = whole.lines().collect();
    // Header, separator, then 2 cubes x 4 algorithms x 3 fault sets.
    assert_eq!(rows.len(), 2 + 2 * 4 * 3);
    assert_eq!(
        rows[2],
        "| e-cube | 3 | 2 | - | 36 | 36 | 0 | acyclic | - | - |"
    );
    assert_eq!(
        rows[14],
        "| e-cube | 5 | 2 | - | 100 | 200 | 0 | cycle of 5: `0,0:+0 -> 0,1:+0 -> 0,2:+0 -> 0,3:+0 -> 0,4:+0 -> 0,0:+0` | the same | deadlocks |"
    );
    assert!(rows[15].starts_with("| e-cube | 5 | 2 | 0,0:+0 | 100 | 196 |"));
    assert!(rows[16].starts_with("| e-cube | 5 | 2 | 0,0:+0 0,0:-0 | 100 | 192 |"));
}

#[test]
fn bad_input_is_one_line_on_stderr_and_exit_status_2() {
    let cases: [(&[&str], &str); 9] = [
        (
            &[
                "torus", "deadlock", "--k", "1", "--n", "2", "--algo", "e-cube",
            ],
            "the k-ary n-cube needs 2 <= k <= 65536, got k = 1",
        ),
        (
            &[
                "torus",
                "deadlock",
                "--k",
                "4",
                "--n",
                "3",
                "--algo",
                "west-first",
            ],
            "west-first routes on a 2-D torus: it needs n = 2, got n = 3",
        ),
        (
            &[
                "torus",
                "deadlock",
                "--k",
                "4",
                "--n",
                "2",
                "--algo",
                "e-cube",
                "--faulty-link",
                "0,0:+2",
            ],
            "link '0,0:+2': dimension 2 does not exist; the 4-ary 2-cube has dimensions 0 to 1",
        ),
        (
            &[
                "torus",
                "deadlock",
                "--k",
                "4",
                "--n",
                "2",
                "--algo",
                "e-cube",
                "--faulty-node",
                "0,4",
            ],
            "node '0,4': digit 4 at position 2 is out of range; the 4-ary 2-cube uses digits 0 to 3",
        ),
        (
            &[
                "torus", "deadlock", "--k", "17", "--n", "3", "--algo", "e-cube",
            ],
            "the channel dependency analysis walks every destination of every node: the 17-ary 3-cube has 17^3 nodes, more than 4096",
        ),
        (
            &[
                "torus",
                "deadlock",
                "--k",
                "4",
                "--n",
                "2",
                "--algo",
                "e-cube",
                "--faulty-node",
                "1,1",
                "--simulate",
            ],
            "the wormhole simulator has faulty links only: give the links into faulty node 1,1 as --faulty-link instead",
        ),
        (
            &[
                "torus",
                "deadlock",
                "--k",
                "4",
                "--n",
                "2",
                "--algo",
                "west-first",
                "--reading",
                "keep",
            ],
            "reading 'keep' applies to the algorithms that select a pair of dimensions as they go (double-e-cube, direction-first), not to west-first",
        ),
        (
            &["torus", "deadlock-sweep", "--ks", "2,3"],
            "the deadlock sweep needs k >= 3 (its fault sets use the link 0...0:-0), got k = 2",
        ),
        (
            &["torus", "deadlock-sweep", "--shard", "2/2"],
            "shard '2/2' is not I/N with 0 <= I < N (for example 0/8)",
        ),
    ];
    for (args, message) in cases {
        let (status, stdout, stderr) = kautzgen(args);
        assert_eq!(status, 2, "{args:?}");
        assert_eq!(stdout, "");
        assert_eq!(stderr, format!("error: {message}\n"), "{args:?}");
    }
}

/// The lines `--simulate` adds after the analysis.
fn witness_lines(stdout: &str) -> Vec<&str> {
    let start = stdout.find("witness:").expect("a witness section");
    stdout[start..].lines().collect()
}

#[test]
fn the_e_cube_ring_witness_deadlocks_on_exactly_the_analysed_cycle() {
    // Each dependency 0,i:+0 -> 0,(i+1):+0 is first created (destinations in node order,
    // every e-cube state has one choice so none needs a busy port) by the message from
    // 0,i to the lowest-numbered destination that goes +0 twice from 0,i: 0,(i+2) mod 5
    // (0,0 from 0,3, 0,1 from 0,4). Each route is one hop, so messages are 2 flits (one
    // full 2-flit buffer). Cycle 0: every header takes its free link 0,i:+0. Cycle 1:
    // each header at 0,(i+1) asks for 0,(i+1):+0, held by the next worm, while its second
    // flit enters the buffer. Cycle 2: no flit can move: the deadlock, every worm holding
    // its channel of the cycle and asking for the next, listed from worm 0.
    let (status, stdout, stderr) = deadlock("5", "2", "e-cube", &["--simulate"]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    let mut expected = vec![
        "witness: 5 messages placed at cycle 0, one per dependency of the cycle, 2 flits \
         each, 2-flit buffers"
            .to_string(),
    ];
    for i in 0..5 {
        expected.push(format!(
            "  message {i}: 0,{i} -> 0,{} over 0,{i}:+0, holds 0,{i}:+0 (f=0 x=0 y=0), asks \
             for 0,{}:+0",
            (i + 2) % 5,
            (i + 1) % 5
        ));
    }
    expected.push(
        "witness: deadlock at cycle 2, waiting cycle: 0,0:+0 -> 0,1:+0 -> 0,2:+0 -> 0,3:+0 \
         -> 0,4:+0 -> 0,0:+0 (exactly the analysed cycle)"
            .to_string(),
    );
    for i in 0..5 {
        expected.push(format!(
            "  worm {i} (0,{i} -> 0,{}) at 0,{} holds 0,{i}:+0 wants 0,{}:+0 held by worm {}",
            (i + 2) % 5,
            (i + 1) % 5,
            (i + 1) % 5,
            (i + 1) % 5
        ));
    }
    assert_eq!(witness_lines(&stdout), expected);
    // The same placement by hand in the simulator gives the same run.
    let mut args = vec![
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
    let messages = ["0,0:0,2", "0,1:0,3", "0,2:0,4", "0,3:0,0", "0,4:0,1"];
    for m in &messages {
        args.extend(["--message", m]);
    }
    let (_, json, _) = kautzgen(&args);
    let s: serde_json::Value = common::netsim_json(&json);
    assert_eq!(
        (&s["cycles"], &s["routing"]["deadlock"]),
        (&3.into(), &true.into()),
        "{json}"
    );
}

const DIRECTION_FIRST_MESSAGES: [&str; 10] = [
    "  message 0: 0,0,0 -> 0,0,3 over 0,0,0:-0, holds 0,0,0:-0 (f=1 x=0 y=2), asks for 0,0,4:-0",
    "  message 1: 0,0,4 -> 0,0,2 over 0,0,4:-0, holds 0,0,4:-0 (f=1 x=0 y=2), asks for 0,0,3:-0",
    "  message 2: 0,0,3 -> 0,0,0 over 0,0,3:-0, holds 0,0,3:-0 (f=1 x=0 y=2), asks for 0,0,2:-0",
    "  message 3: 0,0,2 -> 0,0,0 over 0,0,2:-0, holds 0,0,2:-0 (f=1 x=0 y=2), asks for 0,0,1:-0",
    "  message 4: 0,0,1 -> 0,3,0 over 0,0,1:-0, holds 0,0,1:-0 (f=1 x=0 y=1), asks for 0,0,0:-1",
    "  message 5: 0,0,0 -> 0,3,0 over 0,0,0:-1, holds 0,0,0:-1 (f=1 x=1 y=0), asks for 0,4,0:-1",
    "  message 6: 0,4,0 -> 0,2,0 over 0,4,0:-1, holds 0,4,0:-1 (f=1 x=1 y=0), asks for 0,3,0:-1",
    "  message 7: 0,3,0 -> 0,0,0 over 0,3,0:-1, holds 0,3,0:-1 (f=1 x=1 y=0), asks for 0,2,0:-1",
    "  message 8: 0,2,0 -> 0,0,0 over 0,2,0:-1, holds 0,2,0:-1 (f=1 x=1 y=0), asks for 0,1,0:-1",
    "  message 9: 0,1,0 -> 1,0,3 over 0,1,0:-1, holds 0,1,0:-1 (f=0 x=0 y=1), asks for 0,0,0:-0",
];

#[test]
fn the_direction_first_witness_on_the_5_ary_3_cube_is_delivered() {
    // The ten messages are those of the hand-walked routes of
    // direction_first_on_the_5_ary_3_cube_has_a_cycle_through_two_wraparounds, each one
    // hop (2 flits), except that message 1 starts at 0,0,4 itself (to 0,0,2: -0 is the
    // mesh way and the wraparound +0 saves nothing, so -0 is its first choice).
    // They do not deadlock, for two reasons the placement cannot help:
    // - message 9 (0,1,0 -> 1,0,3) starts with every port free; its first choice is the
    //   wraparound -0 (pair (0, 1) is new, 0 -> 4 -> 3 is 2 hops, the mesh way 3), so it
    //   never takes 0,1,0:-1, and message 8 at 0,1,0 finds 0,1,0:-1 free: the cycle is
    //   open there. Only with 0,1,0:-0 and 0,1,0:+0 busy would it take -1.
    // - 0,0,0 is left twice on the cycle (-0 and -1): messages 0 and 5 share that
    //   source, which sends one worm at a time.
    let tail = [
        "witness: no deadlock, all 10 messages delivered by cycle 11",
        "  not forced: message 9 takes 0,1,0:-1 only when 0,1,0:-0 and 0,1,0:+0 are busy",
        "  not forced: source 0,0,0 sends messages 0 and 5 one after the other",
    ];
    let header = "witness: 10 messages placed at cycle 0, one per dependency of the cycle, 2 \
                  flits each, 2-flit buffers";
    let (status, stdout, _) = deadlock("5", "3", "direction-first", &["--simulate"]);
    assert_eq!(status, 0);
    let mut expected = vec![header];
    expected.extend(DIRECTION_FIRST_MESSAGES);
    expected.extend(tail);
    assert_eq!(witness_lines(&stdout), expected);
    // The three faulty links that make this a forced cycle (every message on it has no
    // other port once it holds its channel) are all at 0,0,0 and change nothing at 0,1,0,
    // where message 9 still goes -0: delivered again. The delivery cycles (11, 12) are
    // the simulator's, not derived by hand; `netsim torus` with the same ten messages,
    // 2 flits each, runs 12 and 13 cycles and no deadlock.
    let faults = [
        "--faulty-link",
        "0,0,0:+0",
        "--faulty-link",
        "0,0,0:+1",
        "--faulty-link",
        "0,0,0:+2",
        "--simulate",
    ];
    let (status, stdout, _) = deadlock("5", "3", "direction-first", &faults);
    assert_eq!(status, 0);
    let lines = witness_lines(&stdout);
    assert_eq!(&lines[..11], &expected[..11]);
    assert_eq!(
        lines[11],
        "witness: no deadlock, all 10 messages delivered by cycle 12"
    );
    assert_eq!(&lines[12..], &tail[1..]);
}

#[test]
fn the_sweep_shows_which_witnesses_deadlock() {
    let (status, table, _) = kautzgen(&["torus", "deadlock-sweep", "--ks", "5", "--ns", "3"]);
    assert_eq!(status, 0);
    let verdicts: Vec<(&str, &str)> = table
        .lines()
        .skip(2)
        .map(|row| {
            let cells: Vec<&str> = row.split(" | ").collect();
            (cells[0], cells[cells.len() - 1])
        })
        .collect();
    // e-cube, double e-cube, direction-first, each with three fault sets, all cyclic.
    let mut expected = vec![("| e-cube", "deadlocks |"); 3];
    expected.extend([("| double-e-cube", "deadlocks |"); 3]);
    expected.extend([("| direction-first", "delivered |"); 3]);
    assert_eq!(verdicts, expected);
}

#[test]
fn simulate_on_an_acyclic_graph_has_nothing_to_place() {
    let (status, stdout, _) = deadlock("4", "2", "e-cube", &["--simulate"]);
    assert_eq!(status, 0);
    assert!(stdout.ends_with(&format!("{ACYCLIC}witness: acyclic, nothing to place\n")));
    let (_, json, _) = deadlock("4", "2", "e-cube", &["--simulate", "--format", "json"]);
    assert!(
        json.ends_with("\"acyclic\":true,\"cycle\":[],\"forced_cycle\":[],\"witness\":{\"result\":\"nothing to place\"}}\n"),
        "{json}"
    );
}

#[test]
fn keep_has_neither_wraparound_dependency_of_the_5_ary_3_cube_witness() {
    // The default reading's cycle enters its wraparounds by 0,0,1:-0 -> 0,0,0:-1 and
    // 0,1,0:-1 -> 0,0,0:-0. Under keep neither exists, by hand (tori are selected lowest
    // dimensions first, so a dimension incorrect when a torus is selected is in it):
    // - over 0,0,1:-0 a worm is in a torus (0, y). If y = 1 and dimension 1 is still
    //   incorrect at 0,0,0, it stays in (0, 1): no first hop, so dimension 1 goes the mesh
    //   way, + from digit 0. Otherwise dimension 1 is correct (corrected in (0, 1), or
    //   correct all along when y = 2): no hop in dimension 1.
    // - over 0,1,0:-1 a worm is in (0, 1) or (1, 0) (then dimension 0 was correct) or
    //   (1, 2) or (2, 1) (selected with dimension 0 correct). Only (0, 1) moves in
    //   dimension 0, kept at 0,0,0 while a dimension is incorrect: mesh way, +.
    // So the graph loses both, and the analysis finds no cycle at all.
    let torus = Torus::new(5, 3).unwrap();
    let link = |text: &str| torus.parse_link(text).unwrap();
    let depends = |router: &Router, from: &str, to: &str| {
        let graph = ChannelGraph::build(router, &Faults::new()).unwrap();
        let (from, to) = (link(from), link(to));
        let channel = |l: &Link| {
            (0..)
                .find(|&c| graph.link_of(c).as_ref() == Some(l))
                .unwrap()
        };
        graph.successors(channel(&from)).any(|c| c == channel(&to))
    };
    let reselect = Router::new(torus, Algorithm::DirectionFirst).unwrap();
    let keep = Router::with_reading(torus, Algorithm::DirectionFirst, Reading::Keep).unwrap();
    for (from, to) in [("0,0,1:-0", "0,0,0:-1"), ("0,1,0:-1", "0,0,0:-0")] {
        assert!(depends(&reselect, from, to), "{from} -> {to}");
        assert!(!depends(&keep, from, to), "{from} -> {to}");
    }
    // 750 channels: 125 nodes, 6 ports each. The dependency count is the analysis's,
    // checked against the path-enumerating method in routing::torus_cdg's tests.
    let (status, stdout, stderr) = deadlock(
        "5",
        "3",
        "direction-first",
        &["--reading", "keep", "--simulate"],
    );
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert_eq!(
        stdout,
        format!(
            "direction-first (keep reading) on the 5-ary 3-cube: 750 channels, 2520 \
             dependencies\n{ACYCLIC}witness: acyclic, nothing to place\n"
        )
    );
    let (_, json, _) = deadlock(
        "5",
        "3",
        "direction-first",
        &["--reading", "keep", "--format", "json"],
    );
    assert!(
        json.starts_with(r#"{"k":5,"n":3,"algo":"direction-first","reading":"keep","#),
        "{json}"
    );
}

#[test]
fn the_keep_sweep_has_double_e_cube_rings_and_no_direction_first_cycle() {
    // Under keep the sweep runs the two algorithms that select a pair. Double e-cube walks
    // e-cube's paths under both readings, so its ring cycles (k = 5 > 4) are still forced
    // and deadlock; direction-first is acyclic with every fault set.
    let (status, table, _) = kautzgen(&[
        "torus",
        "deadlock-sweep",
        "--ks",
        "5",
        "--ns",
        "3",
        "--reading",
        "keep",
    ]);
    assert_eq!(status, 0);
    let rows: Vec<Vec<&str>> = table
        .lines()
        .skip(2)
        .map(|row| row.split(" | ").collect())
        .collect();
    let verdicts: Vec<(&str, &str, &str)> = rows
        .iter()
        .map(|cells| (cells[0], cells[cells.len() - 2], cells[cells.len() - 1]))
        .collect();
    let mut expected = vec![("| double-e-cube (keep reading)", "the same", "deadlocks |"); 3];
    expected.extend([("| direction-first (keep reading)", "-", "- |"); 3]);
    assert_eq!(verdicts, expected);
    assert!(rows[3..].iter().all(|cells| cells[7] == "acyclic"));
}
