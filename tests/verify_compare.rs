//! Parsing and judging simulator output, with synthetic results files: every kind of
//! mismatch gives the exact report asserted here.
//!
//! The vector is Table 3 of the route-generator paper (Smit et al. 1991), K(4,5) from 01234
//! to 23430, whose routes are 30, 23430, 023430 and 1323430. The route words were worked out
//! by hand: 3 bits a letter, 7 letters, z1 first, e.g.
//! [30] = 011 000 000 000 000 000 000 = 0x0c0000 and
//! [1323430] = 1*8^6 + 3*8^5 + 2*8^4 + 3*8^3 + 4*8^2 + 3*8 = 370456 = 0x05a718.

use kautzgen::sim::compare::Checker;
use kautzgen::sim::results::parse;
use kautzgen::sim::vectors::{Expected, Stimulus, Vector, cycle_bound};
use kautzgen::topology::kautz::Kautz;

const R1: &str = "route 2 0c0000 1 1\n"; // [30]
const R2: &str = "route 5 09c600 1 1\n"; // [23430]
const R3: &str = "route 6 0138c0 1 1\n"; // [023430]
const R4: &str = "route 7 05a718 1 1\n"; // [1323430]

fn graph() -> Kautz {
    Kautz::new(4, 5).unwrap()
}

fn plain() -> Stimulus {
    Stimulus {
        delay: 0,
        nudge: false,
        lead: 0,
        reset: false,
    }
}

fn table3(stimulus: Stimulus) -> Vector {
    Vector {
        position: 7,
        src: vec![0, 1, 2, 3, 4],
        dst: vec![2, 3, 4, 3, 0],
        stimulus,
        expected: Expected::Routes(vec![
            vec![3, 0],
            vec![2, 3, 4, 3, 0],
            vec![0, 2, 3, 4, 3, 0],
            vec![1, 3, 2, 3, 4, 3, 0],
        ]),
    }
}

/// The report of one vector judged against `results` (the lines after `vector 0`).
fn judge(vector: &Vector, results: &str) -> String {
    let observed = parse(&format!("vector 0\n{results}")).unwrap();
    assert_eq!(observed.len(), 1);
    let mut checker = Checker::new(&graph(), cycle_bound(&graph()), 5);
    checker.check("verilator", vector, &observed[0]);
    checker.finish("verilator").render()
}

fn with(routes: &[&str], end: &str) -> String {
    format!("{}{end}", routes.concat())
}

#[test]
fn a_correct_answer_passes() {
    let report = judge(&table3(plain()), &with(&[R1, R2, R3, R4], "done 0 17 1\n"));
    assert_eq!(
        report,
        "verilator: cycles per route set: mean 17.0, max 17 (bound 24)\n\
         verilator: 1 passed, 0 failed\n"
    );
}

/// The failure block of a single failing vector, without the figures after it.
fn failure(vector: &Vector, results: &str) -> String {
    let report = judge(vector, results);
    assert!(
        report.ends_with("verilator: 0 passed, 1 failed\n"),
        "{report}"
    );
    report
        .lines()
        .filter(|l| !l.starts_with("verilator: cycles") && !l.ends_with(" failed"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn routes_out_of_order() {
    assert_eq!(
        failure(&table3(plain()), &with(&[R1, R2, R4, R3], "done 0 17 1\n")),
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [1323430] [023430] done after 17 cycles
  - route 3 is [1323430], expected [023430]
"
    );
}

#[test]
fn a_route_missing_or_one_too_many() {
    assert_eq!(
        failure(&table3(plain()), &with(&[R1, R2, R3], "done 0 12 1\n")),
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [023430] done after 12 cycles
  - 3 routes, expected 4
"
    );
    assert_eq!(
        failure(
            &table3(plain()),
            &with(&[R1, R2, R3, R4, R4], "done 0 19 1\n")
        ),
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [023430] [1323430] [1323430] done after 19 cycles
  - 5 routes, expected 4
"
    );
}

#[test]
fn handshake_faults_are_named_by_route() {
    let stimulus = Stimulus {
        delay: 2,
        nudge: true,
        lead: 5,
        reset: true,
    };
    let r1_not_alone = "route 2 0c0000 1 0\n";
    let r2_not_held = "route 5 09c600 0 1\n";
    assert_eq!(
        failure(
            &table3(stimulus),
            &format!(
                "reset 0\n{}",
                with(&[r1_not_alone, r2_not_held, R3, R4], "done 0 17 0\n")
            )
        ),
        "verilator: vector 7: src 01234 dst 23430 (hold 2, next_route nudged, lead-in 5, rst)
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [023430] [1323430] done after 17 cycles
  - outputs not all low after rst
  - done or error high while route 1 was valid
  - route 2 changed or dropped while next_route was low
  - after done: done fell, error changed or route_valid rose
"
    );
}

#[test]
fn error_flag_cycles_timeout_and_a_cut_run() {
    let v = table3(plain());
    assert_eq!(
        failure(&v, &with(&[R1, R2, R3, R4], "done 1 17 1\n")),
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [023430] [1323430] error after 17 cycles
  - error high, expected low
"
    );
    // Bound k + 3(d+1) + 4 = 5 + 15 + 4 = 24.
    let report = judge(&v, &with(&[R1, R2, R3, R4], "done 0 25 1\n"));
    assert_eq!(
        report,
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [023430] [1323430] done after 25 cycles
  - 25 cycles, more than the bound of 24
verilator: cycles per route set: mean 25.0, max 25 (bound 24)
verilator: 0 passed, 1 failed
"
    );
    assert_eq!(
        failure(&v, &with(&[R1], "timeout 192\n")),
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] timeout after 192 cycles
  - 1 route, expected 4
  - no done within 192 cycles
"
    );
    assert_eq!(
        failure(&v, &with(&[R1, R2], "")),
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] (simulation stopped)
  - 2 routes, expected 4
  - the simulation stopped before this vector ended
"
    );
}

#[test]
fn timeouts_are_reported_as_such() {
    let report = judge(&table3(plain()), &with(&[R1, R2, R3, R4], "timeout 192\n"));
    assert_eq!(
        report,
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [023430] [1323430] timeout after 192 cycles
  - no done within 192 cycles
verilator: cycles per route set: none finished (bound 24)
verilator: 0 passed, 1 failed
"
    );
}

#[test]
fn unreadable_ports_are_shown_raw() {
    // An unknown digit, and [1323430] with a non-zero letter below route_len's 7.
    let x = "route 7 05a7x8 1 1\n";
    let tail = "route 6 05a719 1 1\n";
    assert_eq!(
        failure(&table3(plain()), &with(&[R1, R2, x, tail], "done 0 17 1\n")),
        "verilator: vector 7: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [route_len 7, route 05a7x8] [route_len 6, route 05a719] done after 17 cycles
  - route 3 is [route_len 7, route 05a7x8], expected [023430]
"
    );
}

#[test]
fn invalid_words_expect_error_and_no_route() {
    // 01011 has two equal neighbours: no route, error and done.
    let v = Vector {
        position: 1280 * 1279 + 2,
        src: vec![0, 1, 0, 1, 1],
        dst: vec![4, 3, 4, 3, 4],
        stimulus: plain(),
        expected: Expected::Error,
    };
    assert_eq!(
        judge(&v, "done 1 1 1\n"),
        "verilator: cycles per route set: none finished (bound 24)\n\
         verilator: 1 passed, 0 failed\n"
    );
    assert_eq!(
        failure(&v, &with(&[R1], "done 0 3 1\n")),
        "verilator: vector 1637122: src 01011 dst 43434
  expected: error
  got:      [30] done after 3 cycles
  - 1 route, expected 0
  - error low, expected high
"
    );
}

#[test]
fn only_the_first_failures_are_shown_and_all_are_counted() {
    let good = with(&[R1, R2, R3, R4], "done 0 16 1\n");
    let bad = with(&[R1, R2, R3, R4], "done 0 30 1\n");
    let text: String = [&good, &bad, &bad, &good, &bad]
        .iter()
        .enumerate()
        .map(|(i, body)| format!("vector {i}\n{body}"))
        .collect();
    let observed = parse(&text).unwrap();
    let mut checker = Checker::new(&graph(), cycle_bound(&graph()), 1);
    for (i, o) in observed.iter().enumerate() {
        let mut v = table3(plain());
        v.position = i as u64;
        checker.check("ghdl", &v, o);
    }
    assert_eq!(
        checker.finish("ghdl").render(),
        "ghdl: vector 1: src 01234 dst 23430
  expected: [30] [23430] [023430] [1323430] done
  got:      [30] [23430] [023430] [1323430] done after 30 cycles
  - 30 cycles, more than the bound of 24
ghdl: 2 more failures not shown
ghdl: cycles per route set: mean 24.4, max 30 (bound 24)
ghdl: 2 passed, 3 failed
"
    );
}
