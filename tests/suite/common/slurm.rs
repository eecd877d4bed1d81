//! A one-node Slurm cluster of the test's own: munged as the munge user, slurmctld and
//! slurmd as root, their key, sockets, state, spool, logs and slurm.conf in a temporary
//! directory, on free ports, no accounting and no cgroups. [`Cluster::start`] returns once
//! `sinfo` shows the node idle; dropping the cluster (also when the test panics) cancels
//! its jobs and stops the three daemons by the PIDs it started.
//!
//! It needs Debian's slurm-wlm and munge, and root (slurmd starts jobs as their users); a
//! missing package fails the test with the command that installs it.

use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What installs every program the cluster runs.
const INSTALL: &str = "apt-get install slurm-wlm munge";

/// How long the daemons may take to show the node idle, and to stop.
const START_TIMEOUT: Duration = Duration::from_secs(30);
const STOP_TIMEOUT: Duration = Duration::from_secs(10);

/// A running one-node cluster.
pub struct Cluster {
    dir: tempfile::TempDir,
    /// munged, slurmctld and slurmd, in the order they started.
    daemons: Vec<Child>,
}

impl Cluster {
    /// Starts the daemons and waits until the node is idle; panics with their logs if it
    /// does not get there.
    pub fn start() -> Cluster {
        for program in [
            "munged",
            "mungekey",
            "slurmctld",
            "slurmd",
            "sbatch",
            "sinfo",
        ] {
            assert!(
                program_path(program).is_some(),
                "{program} is not installed: {INSTALL}"
            );
        }
        assert!(
            rustix::process::geteuid().is_root(),
            "the Slurm test runs as root: slurmctld and slurmd start jobs as their users"
        );
        let dir = tempfile::tempdir().unwrap();
        // munged, as the munge user, reaches its directory through this one.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut cluster = Cluster {
            dir,
            daemons: Vec::new(),
        };
        let munged = cluster.start_munge();
        cluster.daemons.push(munged);
        for state in ["state", "spool"] {
            std::fs::create_dir(cluster.dir.path().join(state)).unwrap();
        }
        std::fs::write(cluster.conf(), slurm_conf(cluster.dir.path())).unwrap();
        for daemon in ["slurmctld", "slurmd"] {
            let child = cluster.daemon(daemon);
            cluster.daemons.push(child);
        }
        cluster.wait_idle();
        cluster
    }

    /// slurm.conf, which `SLURM_CONF` names to every Slurm command.
    pub fn conf(&self) -> PathBuf {
        self.dir.path().join("slurm.conf")
    }

    /// `program` with `SLURM_CONF` set to this cluster's.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new(program);
        command.env("SLURM_CONF", self.conf());
        command
    }

    /// The daemons' logs, for a failure's message.
    pub fn logs(&self) -> String {
        let mut logs = String::new();
        for name in ["munged.log", "slurmctld.log", "slurmd.log"] {
            let text = std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default();
            logs += &format!("--- {name}\n{text}");
        }
        logs
    }

    /// munged as the munge user, with a key made for this cluster, in the foreground (where
    /// it logs to standard error: munged.log).
    fn start_munge(&self) -> Child {
        let munge = self.dir.path().join("munge");
        std::fs::create_dir(&munge).unwrap();
        // Its socket's directory must be open to every user.
        std::fs::set_permissions(&munge, std::fs::Permissions::from_mode(0o755)).unwrap();
        let key = munge.join("munge.key");
        let made = Command::new(program_path("mungekey").unwrap())
            .arg("--create")
            .arg(format!("--keyfile={}", key.display()))
            .status()
            .unwrap();
        assert!(made.success(), "mungekey --create failed");
        let (uid, gid) = (id("-u"), id("-g"));
        for path in [&munge, &key] {
            std::os::unix::fs::chown(path, Some(uid), Some(gid)).unwrap();
        }
        let path = |name: &str| format!("{}", munge.join(name).display());
        let log = std::fs::File::create(self.dir.path().join("munged.log")).unwrap();
        Command::new(program_path("munged").unwrap())
            .arg("--foreground")
            .arg(format!("--socket={}", path("munge.socket")))
            .arg(format!("--key-file={}", path("munge.key")))
            .arg(format!("--pid-file={}", path("munged.pid")))
            .arg(format!("--seed-file={}", path("munged.seed")))
            .uid(uid)
            .gid(gid)
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap()
    }

    /// slurmctld or slurmd in the foreground, its output in NAME.out beside its log.
    fn daemon(&self, name: &str) -> Child {
        let out = std::fs::File::create(self.dir.path().join(format!("{name}.out"))).unwrap();
        self.command(program_path(name).unwrap())
            .arg("-D")
            .stdin(Stdio::null())
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .spawn()
            .unwrap()
    }

    /// Waits until `sinfo` shows the node idle.
    fn wait_idle(&mut self) {
        let start = Instant::now();
        loop {
            let sinfo = self
                .command("sinfo")
                .args(["-h", "-o", "%t"])
                .output()
                .unwrap();
            if String::from_utf8_lossy(&sinfo.stdout).trim() == "idle" {
                return;
            }
            if let Some((name, status)) = self.exited() {
                panic!(
                    "{name} stopped ({status}) before the node was idle\n{}",
                    self.logs()
                );
            }
            if start.elapsed() > START_TIMEOUT {
                panic!(
                    "the node was not idle after {START_TIMEOUT:?}: sinfo says {:?}\n{}",
                    String::from_utf8_lossy(&sinfo.stdout),
                    self.logs()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A daemon that has exited, and its status.
    fn exited(&mut self) -> Option<(&'static str, std::process::ExitStatus)> {
        let names = ["munged", "slurmctld", "slurmd"];
        self.daemons
            .iter_mut()
            .zip(names)
            .find_map(|(child, name)| child.try_wait().unwrap().map(|status| (name, status)))
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Jobs still queued or running (a failed test's) go before their daemons.
        let _ = self.command("scancel").arg("--user=root").status();
        for child in self.daemons.iter_mut().rev() {
            let pid = rustix::process::Pid::from_child(child);
            let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
            let start = Instant::now();
            while child.try_wait().ok().flatten().is_none() {
                if start.elapsed() > STOP_TIMEOUT {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}

/// The slurm.conf of a cluster in `dir`: this host as its one node with its CPUs, free
/// ports, state and spool in `dir`, root as the daemons' user, no cgroups (processes are
/// tracked by their parents), no accounting.
fn slurm_conf(dir: &Path) -> String {
    let host = short_hostname();
    let cpus = std::thread::available_parallelism().unwrap();
    let path = |name: &str| dir.join(name).display().to_string();
    let lines = [
        "ClusterName=kautzgen-test".to_string(),
        format!("SlurmctldHost={host}(127.0.0.1)"),
        format!("SlurmctldPort={}", free_port()),
        format!("SlurmdPort={}", free_port()),
        "SlurmUser=root".to_string(),
        "SlurmdUser=root".to_string(),
        "AuthType=auth/munge".to_string(),
        "CredType=cred/munge".to_string(),
        format!("AuthInfo=socket={}", path("munge/munge.socket")),
        format!("StateSaveLocation={}", path("state")),
        format!("SlurmdSpoolDir={}", path("spool")),
        format!("SlurmctldPidFile={}", path("slurmctld.pid")),
        format!("SlurmdPidFile={}", path("slurmd.pid")),
        format!("SlurmctldLogFile={}", path("slurmctld.log")),
        format!("SlurmdLogFile={}", path("slurmd.log")),
        "ProctrackType=proctrack/linuxproc".to_string(),
        "TaskPlugin=task/none".to_string(),
        "SelectType=select/cons_tres".to_string(),
        "SelectTypeParameters=CR_CPU".to_string(),
        "AccountingStorageType=accounting_storage/none".to_string(),
        "JobAcctGatherType=jobacct_gather/none".to_string(),
        "JobCompType=jobcomp/none".to_string(),
        "MpiDefault=none".to_string(),
        "ReturnToService=2".to_string(),
        format!("NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN"),
        format!("PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP"),
    ];
    lines.join("\n") + "\n"
}

/// The host's short name, which slurmd looks for among the nodes.
fn short_hostname() -> String {
    let output = Command::new("hostname").arg("-s").output().unwrap();
    assert!(output.status.success(), "hostname -s failed");
    String::from_utf8(output.stdout).unwrap().trim().to_string()
}

/// A TCP port free now, for a daemon to listen on.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The munge user's id (`-u`) or group (`-g`).
fn id(which: &str) -> u32 {
    let output = Command::new("id").args([which, "munge"]).output().unwrap();
    assert!(output.status.success(), "there is no munge user: {INSTALL}");
    String::from_utf8(output.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Where `program` is: on PATH, or in /usr/sbin and /sbin, where Debian puts the daemons.
pub fn program_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/sbin"), PathBuf::from("/sbin")])
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}
