//! Progress on standard error: bars for netsim's cycles, sweep points and verify's
//! vectors, a spinner naming synth's and prove's step, and the wall time a run took.
//! Shown only while standard error is a terminal, so that logs and pipes get the report
//! alone, and never with `--quiet`.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static QUIET: AtomicBool = AtomicBool::new(false);

/// `--quiet`: no progress at all.
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

fn shown() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// A bar of `len` steps counted in `unit`s (`vectors`, `cycles`, `points`), labelled
/// `name`.
pub fn bar(len: u64, name: &str, unit: &str) -> ProgressBar {
    if !shown() {
        return ProgressBar::hidden();
    }
    let template = format!("{{prefix:>9}} [{{bar:40}}] {{pos}}/{{len}} {unit}, {{eta}}");
    let style = ProgressStyle::with_template(&template)
        .expect("the template is valid")
        .progress_chars("=> ");
    ProgressBar::new(len)
        .with_style(style)
        .with_prefix(name.to_string())
}

/// A line naming the step under way, with the time it has taken.
pub fn spinner(message: &str) -> ProgressBar {
    if !shown() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner().with_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}").expect("the template is valid"),
    );
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Says how long the work of `what` took since `started`, in one line. Results leave
/// their wall time out, so as to be the same byte for byte from run to run.
pub fn wall_time(what: &str, started: Instant) {
    if shown() {
        eprintln!("{what}: {:.1} s", started.elapsed().as_secs_f64());
    }
}
