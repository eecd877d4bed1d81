//! Temporary directories that a signal removes: where simulators, synthesis and proofs
//! run, and where verification generates the design it checks.
//!
//! `verify --keep DIR` asks for all of them to be kept: [`keep_all_in`] makes every later
//! one a numbered directory of DIR, left in place (DIR itself is the command's output, put
//! in place or undone as a whole).

use super::Registration;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where every scratch directory goes when the user keeps them, and how many there are.
static KEPT_IN: Mutex<Option<(PathBuf, u32)>> = Mutex::new(None);

/// From now on, makes every scratch directory in `dir`, and keeps it.
pub fn keep_all_in(dir: &Path) {
    *KEPT_IN.lock().unwrap_or_else(|e| e.into_inner()) = Some((dir.to_path_buf(), 0));
}

/// A temporary directory under the system's, removed when dropped or on a signal, unless
/// it is kept.
#[derive(Debug)]
pub struct ScratchDir {
    path: PathBuf,
    // Dropped before the registration, so that the directory is gone before it is
    // unregistered; `None` for a directory the user keeps.
    dir: Option<tempfile::TempDir>,
    _registration: Option<Registration>,
}

impl ScratchDir {
    /// A new directory named `<prefix><random>` (`<prefix><n>` among those kept).
    pub fn new(prefix: &str) -> io::Result<ScratchDir> {
        if let Some((root, count)) = KEPT_IN.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            *count += 1;
            let path = root.join(format!("{prefix}{count}"));
            std::fs::create_dir_all(&path)?;
            return Ok(ScratchDir {
                path,
                dir: None,
                _registration: None,
            });
        }
        let (dir, registration) = Registration::with(|| {
            let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
            let undo = super::Undo::Remove(dir.path().to_path_buf());
            Ok::<_, io::Error>((dir, undo))
        })?;
        Ok(ScratchDir {
            path: dir.path().to_path_buf(),
            dir: Some(dir),
            _registration: Some(registration),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Leaves the directory on disk, also on a signal (its files are what a report names),
    /// and returns its path.
    pub fn keep(self) -> PathBuf {
        if let Some(dir) = self.dir {
            let _ = dir.keep();
        }
        self.path
    }
}
