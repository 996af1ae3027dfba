//! The private MariaDB server that `cargo xtask conformance` and
//! `cargo xtask calibrate-playbooks` run against: Debian's mariadbd on a temporary
//! datadir and socket (no TCP, no grants), started and stopped by the run itself.

use crate::util::{apt_install, is_root, note, say, which, Result};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// The real server and its clients run at this nice value (when we are root): a
/// machine busy with builds otherwise starves them, and a statement that waits for
/// nothing takes 300 ms to 1 s, past the "blocked" line.
const SERVER_NICE: &str = "-10";

/// `program`, favoured by the scheduler over the machine's builds when we may.
fn favoured(program: &str) -> Command {
    if is_root() && which("nice").is_some() {
        let mut c = Command::new("nice");
        c.args(["-n", SERVER_NICE, program]);
        c
    } else {
        Command::new(program)
    }
}

/// The private server: started here, stopped here.
pub(crate) struct Server {
    child: Child,
    dir: PathBuf,
    pub(crate) socket: PathBuf,
    /// The startup options it was started with beyond the fixed ones.
    pub(crate) options: Vec<String>,
}

impl Server {
    pub(crate) fn start(options: &[String]) -> Result<Server> {
        // One directory per server: the conformance lanes run several at once.
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("ddlscope-conformance-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("data")).map_err(|e| e.to_string())?;
        let socket = dir.join("mysqld.sock");
        say(
            format!(
                "initialising a private MariaDB datadir in {}",
                dir.display()
            ),
            "the conformance run must not touch any other server or data",
        );
        install_db(&dir)?;
        let mut cmd = favoured("mariadbd");
        cmd.arg("--no-defaults")
            .arg(format!("--datadir={}", dir.join("data").display()))
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--pid-file={}", dir.join("mariadbd.pid").display()))
            .arg(format!("--log-error={}", dir.join("error.log").display()))
            .arg(format!("--tmpdir={}", dir.join("tmp").display()))
            .args([
                "--skip-networking",
                "--skip-grant-tables",
                "--innodb-buffer-pool-size=64M",
                "--innodb-log-file-size=16M",
                "--skip-log-bin",
            ])
            .args(options)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if is_root() {
            cmd.arg("--user=root");
        }
        let child = cmd.spawn().map_err(|e| format!("mariadbd: {e}"))?;
        let server = Server {
            child,
            dir,
            socket,
            options: options.to_vec(),
        };
        #[allow(clippy::disallowed_methods, reason = "xtask waits for a real server")]
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(60) {
            if server.sql("SELECT 1").is_ok() {
                note(format!("mariadbd is up on {}", server.socket.display()));
                return Ok(server);
            }
            thread::sleep(Duration::from_millis(200));
        }
        Err(format!(
            "mariadbd did not come up in 60 s; see {}",
            server.dir.join("error.log").display()
        ))
    }

    pub(crate) fn client(&self) -> Command {
        let mut c = favoured("mariadb");
        c.arg("--no-defaults")
            .arg(format!("--socket={}", self.socket.display()))
            .args(["--user=root", "--batch", "--skip-column-names"]);
        c
    }

    /// Runs statements on a fresh connection and waits.
    pub(crate) fn sql(&self, sql: &str) -> Result<String> {
        let out = self
            .client()
            .args(["-e", sql])
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }
}

/// `mariadb-install-db` into `dir/data`, with the bootstrap server's temporary tables in
/// `dir/tmp` (not the shared /tmp, where another process's clean-up once took one
/// mid-bootstrap: "Could not remove temporary table ... error: 2", then 1051 on
/// `mysql.tmp_user_sys`). A failed bootstrap is tried once more on a clean datadir.
fn install_db(dir: &std::path::Path) -> Result {
    let mut last = String::new();
    for attempt in 0..2 {
        if attempt > 0 {
            note(format!(
                "mariadb-install-db failed; trying once more:\n{last}"
            ));
            let _ = std::fs::remove_dir_all(dir.join("data"));
        }
        for sub in ["data", "tmp"] {
            std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
        }
        let out = Command::new("mariadb-install-db")
            .arg("--no-defaults")
            .arg(format!("--datadir={}", dir.join("data").display()))
            .args(["--auth-root-authentication-method=normal", "--skip-test-db"])
            .arg(format!("--tmpdir={}", dir.join("tmp").display()))
            .output()
            .map_err(|e| format!("mariadb-install-db: {e}"))?;
        if out.status.success() {
            return Ok(());
        }
        last = String::from_utf8_lossy(&out.stderr).into_owned();
    }
    Err(format!("mariadb-install-db failed:\n{last}"))
}

impl Drop for Server {
    fn drop(&mut self) {
        // Only the server this run started: its own child process.
        let _ = self.sql("SHUTDOWN");
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(100));
        }
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Makes sure the MariaDB server and client are installed.
/// Debian's packages of the real server and its client.
pub(crate) const PACKAGES: [&str; 2] = ["mariadb-server", "mariadb-client"];

pub(crate) fn ensure_mariadb() -> Result<bool> {
    if which("mariadbd").is_some() && which("mariadb").is_some() {
        return Ok(true);
    }
    if !is_root() {
        note("mariadb-server is not installed and we are not root: run `apt-get install mariadb-server` first");
        return Ok(false);
    }
    say(
        "installing mariadb-server and mariadb-client with apt-get",
        "the conformance scripts run against a real MariaDB 10.11 (Debian 12's)",
    );
    match apt_install(&PACKAGES) {
        Ok(()) => Ok(true),
        Err(e) => {
            note(format!("apt-get could not install mariadb-server: {e}"));
            Ok(false)
        }
    }
}
