//! Starting external tools so that a signal can stop them: each runs as the leader of a
//! process group of its own (Verilator's make and compilers, GHDL's linker, YoWASP's
//! interpreter all join it), registered while it runs.
//!
//! Every tool kautzgen starts goes through [`spawn`], [`status`] or [`output`].

use super::{registry, wait_for_exit};
use std::io;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Output};

/// A running tool, unregistered once it has been waited for; dropped unwaited, its
/// process group is killed and collected.
#[derive(Debug)]
pub struct Tool {
    child: Option<Child>,
}

/// Starts `command` in a process group of its own and registers it.
pub fn spawn(command: &mut Command) -> io::Result<Tool> {
    command.process_group(0);
    let mut registry = registry();
    if registry.stopping {
        drop(registry);
        wait_for_exit();
    }
    let child = command.spawn()?;
    registry.children.insert(child.id());
    Ok(Tool { child: Some(child) })
}

/// Runs `command` to its end: [`Command::status`] for a tool that a signal can stop.
pub fn status(command: &mut Command) -> io::Result<ExitStatus> {
    spawn(command)?.wait()
}

/// Runs `command` to its end, capturing its output: [`Command::output`] for a tool that a
/// signal can stop. Standard input is closed, as [`Command::output`] leaves it unless set.
pub fn output(command: &mut Command) -> io::Result<Output> {
    use std::process::Stdio;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    spawn(command)?.wait_with_output()
}

impl Tool {
    /// The running process, to reach its standard streams.
    pub fn child_mut(&mut self) -> &mut Child {
        self.child
            .as_mut()
            .expect("a tool is held until waited for")
    }

    pub fn wait(mut self) -> io::Result<ExitStatus> {
        let status = self.child_mut().wait();
        self.forget();
        status
    }

    pub fn wait_with_output(mut self) -> io::Result<Output> {
        let child = self.child.take().expect("a tool is held until waited for");
        let id = child.id();
        let output = child.wait_with_output();
        registry().children.remove(&id);
        output
    }

    /// Stops the tool now: kills its process group and collects it.
    pub fn kill(mut self) {
        self.kill_group();
        self.forget();
    }

    fn kill_group(&mut self) {
        if let Some(child) = self.child.as_mut() {
            if let Some(group) = rustix::process::Pid::from_raw(child.id() as i32) {
                let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
            }
            let _ = child.wait();
        }
    }

    fn forget(&mut self) {
        if let Some(child) = self.child.take() {
            registry().children.remove(&child.id());
        }
    }
}

impl Drop for Tool {
    fn drop(&mut self) {
        self.kill_group();
        self.forget();
    }
}
