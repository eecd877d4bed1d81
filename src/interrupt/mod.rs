//! Ctrl-C and kill: what kautzgen undoes when it is stopped.
//!
//! Long commands start external tools (simulators, synthesis, place-and-route) and write
//! through temporary files and directories. [`install`] starts a thread that waits for
//! SIGINT or SIGTERM. When one comes, it kills every tool still running (each runs in a
//! process group of its own, so the tool's own children go too), undoes every registered
//! temporary (removes it, or puts an earlier output that was moved aside back), prints one
//! line and exits with 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM.
//!
//! Code that makes a temporary registers it for as long as it exists ([`Registration`]);
//! code that starts a tool goes through [`child`]; [`scratch`] makes temporary
//! directories that are registered.

pub mod child;
pub mod scratch;

use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// What to undo for one registered temporary.
#[derive(Debug, Clone)]
enum Undo {
    /// Remove this file or directory.
    Remove(PathBuf),
    /// Remove `target` and rename `aside` back to it: an earlier output that was moved
    /// away while its replacement is written in its place.
    Restore { aside: PathBuf, target: PathBuf },
}

impl Undo {
    fn run(&self) {
        match self {
            Undo::Remove(path) => remove_any(path),
            Undo::Restore { aside, target } => {
                remove_any(target);
                let _ = std::fs::rename(aside, target);
            }
        }
    }
}

/// Removes a file, a symlink or a whole directory, whichever `path` is; a missing path is
/// fine.
pub(crate) fn remove_any(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

/// Everything a signal must undo, and whether one came.
struct Registry {
    /// Set once a signal came: no tool may start any more.
    stopping: bool,
    /// Process ids of the running tools, each the leader of its own process group.
    children: BTreeSet<u32>,
    undo: BTreeMap<u64, Undo>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    stopping: false,
    children: BTreeSet::new(),
    undo: BTreeMap::new(),
});

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

/// The registry, also after a thread panicked while holding it: what it holds stays
/// valid, and the signal must still be able to undo it.
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// One registered temporary, undone by a signal until it is dropped or settled.
#[derive(Debug)]
#[must_use = "a temporary is undone on a signal only while its registration lives"]
pub struct Registration(u64);

impl Registration {
    /// Runs `make`, which creates a temporary, and registers what undoes it, both with the
    /// signal held off, so that no signal falls between the two.
    fn with<T, E>(make: impl FnOnce() -> Result<(T, Undo), E>) -> Result<(T, Registration), E> {
        let mut registry = registry();
        let (value, undo) = make()?;
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        registry.undo.insert(id, undo);
        Ok((value, Registration(id)))
    }

    /// Creates a temporary at `path` with `make` and registers its removal.
    pub fn removed<T, E>(
        path: &Path,
        make: impl FnOnce() -> Result<T, E>,
    ) -> Result<(T, Registration), E> {
        Registration::with(|| Ok((make()?, Undo::Remove(path.to_path_buf()))))
    }

    /// Moves an earlier output at `target` to `aside` with `make` and registers that a
    /// signal puts it back (removing whatever is at `target` then).
    pub fn restored<T, E>(
        aside: &Path,
        target: &Path,
        make: impl FnOnce() -> Result<T, E>,
    ) -> Result<(T, Registration), E> {
        Registration::with(|| {
            let undo = Undo::Restore {
                aside: aside.to_path_buf(),
                target: target.to_path_buf(),
            };
            Ok((make()?, undo))
        })
    }

    /// Runs `finish`, the step that makes the temporary permanent or gone (a rename into
    /// place), with the signal held off, and forgets the temporary.
    pub fn settle<T>(self, finish: impl FnOnce() -> T) -> T {
        let mut registry = registry();
        let value = finish();
        registry.undo.remove(&self.0);
        drop(registry);
        std::mem::forget(self);
        value
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        registry().undo.remove(&self.0);
    }
}

/// Starts the thread that stops kautzgen cleanly on SIGINT and SIGTERM.
pub fn install() -> std::io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                stop(signal);
            }
        })?;
    Ok(())
}

/// How long a stop waits for the killed tools' processes to be gone.
const KILL_WAIT: Duration = Duration::from_millis(500);

/// Kills the tools, undoes the temporaries (newest first), says so and exits. The
/// registry stays locked to the end, so nothing starts or settles in between.
fn stop(signal: i32) -> ! {
    use rustix::process::{Pid, Signal, kill_process_group, test_kill_process_group};
    let mut registry = registry();
    registry.stopping = true;
    let groups: Vec<Pid> = registry
        .children
        .iter()
        .filter_map(|&id| Pid::from_raw(id as i32))
        .collect();
    for &group in &groups {
        let _ = kill_process_group(group, Signal::KILL);
    }
    let deadline = Instant::now() + KILL_WAIT;
    while Instant::now() < deadline
        && groups
            .iter()
            .any(|&group| test_kill_process_group(group).is_ok())
    {
        reap(&groups);
        std::thread::sleep(Duration::from_millis(10));
    }
    for undo in registry.undo.values().rev() {
        undo.run();
    }
    let name = match signal {
        signal_hook::consts::SIGTERM => "SIGTERM",
        _ => "SIGINT",
    };
    // A progress bar may own the terminal's last line: start a clean one.
    let clear = if std::io::stderr().is_terminal() {
        "\r\x1b[2K"
    } else {
        ""
    };
    eprintln!(
        "{clear}kautzgen: interrupted by {name}; stopped its tools and removed its temporary files"
    );
    std::process::exit(128 + signal)
}

/// Collects the killed tools that have exited, so that they do not linger as zombies of
/// this process while the stop waits for their groups.
fn reap(groups: &[rustix::process::Pid]) {
    for &pid in groups {
        let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::NOHANG);
    }
}

/// Blocks the calling thread for good: a tool asked to start after a signal came, while
/// the stop is under way and about to exit.
fn wait_for_exit() -> ! {
    loop {
        std::thread::park();
    }
}
