//! One playbook on the real server: sysbench's workload running, the DDL (or
//! pt-online-schema-change) started after a warm-up, optionally behind a
//! transaction that read the table and stays open, then a tail of normal work.

use super::figures::{parse_report, Second, Window};
use crate::mariadb::Server;
use crate::util::Result;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How the change is made.
#[derive(Clone, Copy, Debug)]
pub enum Method {
    /// One ALTER on its own connection.
    Native { ddl: &'static str },
    /// `pt-online-schema-change --alter ALTER`, the tool's defaults otherwise.
    PtOsc { alter: &'static str },
}

/// A playbook as calibration runs it, with the statement that undoes its change
/// so the next playbook finds the same table.
#[derive(Clone, Copy, Debug)]
pub struct Playbook {
    pub name: &'static str,
    pub method: Method,
    pub undo: Option<&'static str>,
    /// The DDL the advisor is asked for this change, and the word naming its
    /// playbook among the advice's (`calibrate::sim`).
    pub asked: &'static str,
    pub advisor_playbook: &'static str,
}

/// The shape of every run.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub rows: u64,
    pub threads: u32,
    pub warm_s: u64,
    pub tail_s: u64,
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct RealRun {
    pub seconds: Vec<Second>,
    /// The server's InnoDB counters about once a second (`STATUS_SAMPLED`), for
    /// calibrating the page cleaner and the checkpoint: what the table does not show.
    pub status: Vec<StatusSample>,
    /// Each time the change was made: once, or [`REPEATS`] times when it took under a
    /// second ([`repeat_while_short`]).
    pub ddl: Vec<Window>,
    /// The DDL's or the tool's error, if it failed.
    pub error: Option<String>,
}

/// How many times a change that takes under a second is made in one run. One second
/// of an 8-thread workload strays by several percent with no DDL at all
/// (`Figures::baseline_sd_pct`), so a sub-second DDL's dip measured once is noise:
/// INSTANT ADD COLUMN measured once dipped −17 % one run, +17 % another. Over eight
/// the mean's two standard errors are about a third as wide.
pub const REPEATS: usize = 8;
/// Seconds from one making of a short change to the next: its undo halfway between,
/// so that neither's second touches the other's.
const REPEAT_EVERY_S: f64 = 4.0;

/// The counters sampled: the checkpoint's age and what the page cleaner wrote.
pub const STATUS_SAMPLED: [&str; 8] = [
    "Innodb_checkpoint_age",
    "Innodb_buffer_pool_pages_dirty",
    "Innodb_buffer_pool_pages_flushed",
    "Innodb_dblwr_writes",
    "Innodb_dblwr_pages_written",
    "Innodb_data_fsyncs",
    "Innodb_os_log_written",
    "Innodb_log_waits",
];

/// One counter's value at `at_s` seconds after sysbench started its threads.
#[derive(Clone, Debug, PartialEq)]
pub struct StatusSample {
    pub at_s: f64,
    pub name: String,
    pub value: u64,
}

/// A client asking for [`STATUS_SAMPLED`] every second until told to stop.
struct StatusSampler {
    stop: std::sync::mpsc::Sender<()>,
    thread: thread::JoinHandle<Vec<StatusSample>>,
}

fn start_status_sampler(server: &Server, started: Instant) -> Result<StatusSampler> {
    let mut child = server
        .client()
        .args(["--batch", "--skip-column-names", "--unbuffered"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("mariadb: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("mariadb has no stdin")?;
    let stdout = child.stdout.take().ok_or("mariadb has no stdout")?;
    let names: Vec<String> = STATUS_SAMPLED.iter().map(|n| format!("'{n}'")).collect();
    let query = format!(
        "SHOW GLOBAL STATUS WHERE Variable_name IN ({});",
        names.join(", ")
    );
    let (stop, stopped) = std::sync::mpsc::channel::<()>();
    let samples = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&samples);
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(|l| l.ok()) {
            let Some((name, value)) = line.split_once('\t') else {
                continue;
            };
            if let Ok(value) = value.trim().parse() {
                sink.lock()
                    .expect("the reader alone pushes")
                    .push(StatusSample {
                        at_s: started.elapsed().as_secs_f64(),
                        name: name.to_string(),
                        value,
                    });
            }
        }
    });
    let thread = thread::spawn(move || {
        while stopped.recv_timeout(Duration::from_secs(1)).is_err() {
            if writeln!(stdin, "{query}").is_err() {
                break;
            }
        }
        drop(stdin);
        let _ = child.wait();
        let _ = reader.join();
        Arc::try_unwrap(samples)
            .map(|m| m.into_inner().unwrap_or_default())
            .unwrap_or_default()
    });
    Ok(StatusSampler { stop, thread })
}

impl StatusSampler {
    fn stop(self) -> Vec<StatusSample> {
        let _ = self.stop.send(());
        self.thread.join().unwrap_or_default()
    }
}

fn sysbench(server: &Server, shape: &Shape, action: &str) -> Command {
    let mut c = Command::new("sysbench");
    c.arg("oltp_read_write")
        .arg("--db-driver=mysql")
        .arg(format!("--mysql-socket={}", server.socket.display()))
        .args(["--mysql-user=root", "--mysql-db=sbtest", "--tables=1"])
        .arg(format!("--table-size={}", shape.rows))
        .arg(format!("--threads={}", shape.threads))
        .arg(action);
    c
}

/// Creates `sbtest.sbtest1` with `shape.rows` rows, as sysbench's prepare does.
pub fn prepare(server: &Server, shape: &Shape) -> Result {
    server.sql("DROP DATABASE IF EXISTS sbtest; CREATE DATABASE sbtest")?;
    let out = sysbench(server, shape, "prepare")
        .output()
        .map_err(|e| format!("sysbench: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "sysbench prepare failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// The workload, running until killed; its per-second reports gathered by a thread.
struct Workload {
    child: Child,
    seconds: Arc<Mutex<Vec<Second>>>,
    reader: thread::JoinHandle<()>,
    /// When sysbench said its threads started: its `[ 1s ]` counts from here.
    started: Instant,
}

fn start_workload(server: &Server, shape: &Shape) -> Result<Workload> {
    let mut child = sysbench(server, shape, "run")
        .args(["--time=0", "--report-interval=1", "--percentile=99"])
        .arg("--mysql-ignore-errors=1205,1213")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("sysbench: {e}"))?;
    let stdout = child.stdout.take().ok_or("sysbench has no stdout")?;
    let seconds = Arc::new(Mutex::new(Vec::new()));
    let (tx, rx) = std::sync::mpsc::channel();
    let sink = Arc::clone(&seconds);
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(|l| l.ok()) {
            if line.starts_with("Threads started!") {
                #[allow(clippy::disallowed_methods, reason = "xtask times a real server")]
                let _ = tx.send(Instant::now());
            }
            if let Some(second) = parse_report(&line) {
                sink.lock().expect("the reader alone pushes").push(second);
            }
        }
    });
    let started = rx
        .recv_timeout(Duration::from_secs(60))
        .map_err(|_| "sysbench did not start its threads within 60 s")?;
    Ok(Workload {
        child,
        seconds,
        reader,
        started,
    })
}

impl Workload {
    fn at(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    fn sleep_until(&self, at_s: f64) {
        let now = self.at();
        if at_s > now {
            thread::sleep(Duration::from_secs_f64(at_s - now));
        }
    }

    fn stop(mut self) -> Vec<Second> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = self.reader.join();
        Arc::try_unwrap(self.seconds)
            .map(|m| m.into_inner().unwrap_or_default())
            .unwrap_or_default()
    }
}

/// A transaction that read the table and stays open until `commit_at_s`.
fn open_transaction(
    server: &Server,
    workload: &Workload,
    commit_at_s: f64,
) -> Result<thread::JoinHandle<()>> {
    let mut child = server
        .client()
        .args(["--unbuffered", "--force"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("mariadb: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("mariadb has no stdin")?;
    writeln!(
        stdin,
        "USE sbtest; BEGIN; SELECT COUNT(*) FROM sbtest1 WHERE id <= 10;"
    )
    .map_err(|e| e.to_string())?;
    let started = workload.started;
    Ok(thread::spawn(move || {
        let wait = commit_at_s - started.elapsed().as_secs_f64();
        if wait > 0.0 {
            thread::sleep(Duration::from_secs_f64(wait));
        }
        let _ = writeln!(stdin, "COMMIT;");
        drop(stdin);
        let _ = child.wait();
    }))
}

fn run_method(server: &Server, method: Method) -> Option<String> {
    let out = match method {
        Method::Native { ddl } => server.client().args(["sbtest", "-e", ddl]).output(),
        Method::PtOsc { alter } => Command::new("pt-online-schema-change")
            .args(["--alter", alter, "--execute", "--no-version-check"])
            .args(["--recursion-method=none"])
            .arg(format!(
                "D=sbtest,t=sbtest1,S={},u=root",
                server.socket.display()
            ))
            .output(),
    };
    match out {
        Ok(o) if o.status.success() => None,
        Ok(o) => Some(
            last_line(&o.stderr)
                .or_else(|| last_line(&o.stdout))
                .unwrap_or_default(),
        ),
        Err(e) => Some(e.to_string()),
    }
}

/// The failure in a line: pt-online-schema-change's step and the server's message
/// (its output also carries timestamps, the statement and the Perl line), or the
/// client's last line.
fn last_line(bytes: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(bytes);
    let line = text.lines().rev().find(|l| !l.trim().is_empty())?;
    let Some((step, server)) = line.split_once(" failed: ") else {
        return Some(line.trim().to_string());
    };
    let step = step
        .split(" Error ")
        .nth(1)
        .map_or(step, |s| s.split(':').next().unwrap_or(s));
    let server = server.split(" [for Statement").next().unwrap_or(server);
    Some(format!("Error {step}: {server}"))
}

/// Runs one playbook: warm-up, the change (behind an open transaction of
/// `open_txn_s` seconds if given; again and again if it is short), the tail; then
/// undoes the change.
pub fn run(
    server: &Server,
    shape: &Shape,
    playbook: &Playbook,
    open_txn_s: Option<u64>,
) -> Result<RealRun> {
    let workload = start_workload(server, shape)?;
    let sampler = start_status_sampler(server, workload.started)?;
    let ddl_at = shape.warm_s as f64;
    let txn = match open_txn_s {
        Some(s) => {
            workload.sleep_until(ddl_at - 1.0);
            Some(open_transaction(server, &workload, ddl_at + s as f64)?)
        }
        None => None,
    };
    workload.sleep_until(ddl_at);
    let (first, mut error) = make_change(server, &workload, playbook);
    let mut ddl = vec![first];
    if error.is_none() && open_txn_s.is_none() {
        error = repeat_while_short(server, &workload, playbook, &mut ddl)?;
    }
    let end_s = ddl.last().map_or(ddl_at, |w| w.end_s);
    workload.sleep_until(end_s + shape.tail_s as f64);
    if let Some(txn) = txn {
        let _ = txn.join();
    }
    let status = sampler.stop();
    let seconds = workload.stop();
    if let Some(undo) = playbook.undo.filter(|_| error.is_none()) {
        server.sql(&format!("USE sbtest; {undo}"))?;
    }
    Ok(RealRun {
        seconds,
        status,
        ddl,
        error,
    })
}

/// The change made once, now: where it ran, and its error if it failed.
fn make_change(
    server: &Server,
    workload: &Workload,
    playbook: &Playbook,
) -> (Window, Option<String>) {
    let start_s = workload.at();
    let error = run_method(server, playbook.method);
    let end_s = workload.at();
    (Window { start_s, end_s }, error)
}

/// While the change took under a second and has an undo, undoes it and makes it
/// again, [`REPEAT_EVERY_S`] apart, until it was made [`REPEATS`] times: its
/// error, if one making failed (that window is kept).
fn repeat_while_short(
    server: &Server,
    workload: &Workload,
    playbook: &Playbook,
    ddl: &mut Vec<Window>,
) -> Result<Option<String>> {
    let Some(undo) = playbook.undo else {
        return Ok(None);
    };
    while ddl.len() < REPEATS {
        let last = *ddl.last().expect("made once before");
        if last.end_s - last.start_s >= 1.0 {
            break;
        }
        workload.sleep_until(last.start_s + REPEAT_EVERY_S / 2.0);
        server.sql(&format!("USE sbtest; {undo}"))?;
        workload.sleep_until(last.start_s + REPEAT_EVERY_S);
        let (window, error) = make_change(server, workload, playbook);
        ddl.push(window);
        if error.is_some() {
            return Ok(error);
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_tool_failure_reads_as_its_step_and_the_servers_message() {
        let line = "2026-12-04T20:52:14 Error copying rows from `s`.`t` to `s`.`_t_new`: 2026-12-04T20:52:14 \
                    DBD::mysql::st execute failed: Lock wait timeout exceeded; try restarting transaction \
                    [for Statement \"INSERT …\"] at /usr/bin/pt-online-schema-change line 11699.";
        assert_eq!(
            super::last_line(line.as_bytes()).unwrap(),
            "Error copying rows from `s`.`t` to `s`.`_t_new`: Lock wait timeout exceeded; try restarting transaction"
        );
        assert_eq!(
            super::last_line(b"ERROR 1205 (HY000) at line 1: Lock wait timeout exceeded\n\n")
                .unwrap(),
            "ERROR 1205 (HY000) at line 1: Lock wait timeout exceeded"
        );
    }
}
