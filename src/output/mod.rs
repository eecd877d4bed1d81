//! Writing the user's outputs without destroying what kautzgen did not write.
//!
//! [`file`](mod@file) writes one output file: a regular file is replaced atomically with its mode
//! kept, a symlink's target is written, a FIFO, a device or `-` is written in place.
//! [`dir`] writes one output directory: a directory kautzgen wrote (it holds [`MARKER`]) is
//! replaced whole, anything else the user has there is refused unless forced. Both
//! register their temporaries with [`crate::interrupt`], so that Ctrl-C leaves nothing
//! behind and the earlier output untouched.

pub mod dir;
pub mod file;

use std::path::{Path, PathBuf};
use thiserror::Error;

/// The file every output directory gets, which says that kautzgen wrote it.
pub const MARKER: &str = ".kautzgen";

#[derive(Debug, Error)]
pub enum OutputError {
    /// An existing output that kautzgen did not write, not to be replaced without --force.
    #[error(
        "'{}' exists and was not written by kautzgen (no {MARKER} marker); give --force to replace it",
        .path.display()
    )]
    NotOurs { path: PathBuf },
    /// A FIFO, device or socket where a directory is to be written: never replaced.
    #[error(
        "'{}' is a FIFO, device or socket, which kautzgen never replaces; give the name of a directory",
        .path.display()
    )]
    NotADirectory { path: PathBuf },
    /// A directory where a file is to be written.
    #[error("'{}' is a directory; give the name of a file", .path.display())]
    IsDirectory { path: PathBuf },
    #[error("'{}': too many levels of symbolic links", .path.display())]
    SymlinkLoop { path: PathBuf },
    /// The system's error is part of the one line, not a cause of its own.
    #[error("cannot write '{}': {cause}", .path.display())]
    Write {
        path: PathBuf,
        cause: std::io::Error,
    },
    #[error("cannot write to standard output: {0}")]
    Stdout(std::io::Error),
}

impl OutputError {
    /// True when the user named an output kautzgen must not write (exit status 2), false
    /// when writing failed (exit status 1).
    pub fn is_refusal(&self) -> bool {
        matches!(
            self,
            OutputError::NotOurs { .. }
                | OutputError::NotADirectory { .. }
                | OutputError::IsDirectory { .. }
                | OutputError::SymlinkLoop { .. }
        )
    }

    fn write(path: &Path) -> impl Fn(std::io::Error) -> OutputError + '_ {
        move |cause| OutputError::Write {
            path: path.to_path_buf(),
            cause,
        }
    }
}

/// How many symbolic links a path may go through, as Linux allows.
const MAX_LINKS: usize = 40;

/// `path` with every symbolic link on its last component followed, as opening it would;
/// the result may not exist (a link to a file yet to be made).
fn follow_links(path: &Path) -> Result<PathBuf, OutputError> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&current).map_err(OutputError::write(path))?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(OutputError::SymlinkLoop {
        path: path.to_path_buf(),
    })
}

/// The directory `path` lives in: its parent, or `.` for a bare name.
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A name for a temporary beside `path`, unique in this process:
/// `.<name>.kautzgen-<pid>-<n>.<what>`.
fn temporary_beside(path: &Path, what: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    parent_of(path).join(format!(
        ".{name}.kautzgen-{}-{n}.{what}",
        std::process::id()
    ))
}
