//! Small helpers shared by every command: where the workspace is, how to say what
//! we are doing, and how to run another program so the user sees the command line.

use std::env;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Every fallible xtask function returns this; the message is shown to the user as is.
pub type Result<T = ()> = std::result::Result<T, String>;

/// The workspace root: xtask lives one directory below it.
pub fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .parent()
        .expect("xtask sits inside the workspace")
        .to_path_buf()
}

/// Cargo's target directory: `CARGO_TARGET_DIR` when set, else `<root>/target`.
pub fn target_dir() -> PathBuf {
    match env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                workspace_root().join(dir)
            }
        }
        _ => workspace_root().join("target"),
    }
}

/// The cargo that ran us (`cargo xtask` sets `CARGO`), so native steps use the same
/// toolchain as the one the developer chose; plain `cargo` from PATH otherwise.
pub fn host_cargo() -> OsString {
    env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// Prints a step heading: what is about to happen and why.
pub fn say(what: impl fmt::Display, why: impl fmt::Display) {
    println!("==> {what}");
    println!("    why: {why}");
}

/// Prints a plain note under the current step.
pub fn note(text: impl fmt::Display) {
    println!("    {text}");
}

/// Renders a command as a shell would show it, with the environment variables we set.
pub fn display_command(cmd: &Command) -> String {
    let mut out = String::new();
    for (key, value) in cmd.get_envs() {
        if let Some(value) = value {
            out.push_str(&format!(
                "{}={} ",
                key.to_string_lossy(),
                value.to_string_lossy()
            ));
        }
    }
    out.push_str(&cmd.get_program().to_string_lossy());
    for arg in cmd.get_args() {
        let arg = arg.to_string_lossy();
        if arg.contains(' ') || arg.is_empty() {
            out.push_str(&format!(" '{arg}'"));
        } else {
            out.push(' ');
            out.push_str(&arg);
        }
    }
    out
}

/// Runs a command with inherited stdio, echoing it first; fails on a non-zero exit.
pub fn run(cmd: &mut Command) -> Result {
    println!("    $ {}", display_command(cmd));
    let status = cmd
        .status()
        .map_err(|e| format!("could not start `{}`: {e}", short_command(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", short_command(cmd)))
    }
}

/// The program's file name and its first few arguments, for one-line reports.
fn short_command(cmd: &Command) -> String {
    let program = Path::new(cmd.get_program())
        .file_name()
        .unwrap_or(cmd.get_program())
        .to_string_lossy()
        .into_owned();
    let args: Vec<String> = cmd
        .get_args()
        .take(3)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let more = if cmd.get_args().len() > 3 { " ..." } else { "" };
    format!("{program} {}{more}", args.join(" "))
        .trim_end()
        .to_string()
}

/// Runs a command quietly and returns its trimmed stdout, or `None` if it could not
/// start or exited non-zero. Used for probes such as `--version`.
pub fn capture(cmd: &mut Command) -> Option<String> {
    let output = cmd.output().ok()?;
    if !output.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

/// Finds an executable by name on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// True when running as root, so installing Debian packages is ours to do.
pub fn is_root() -> bool {
    capture(Command::new("id").arg("-u")).as_deref() == Some("0")
}

/// Installs Debian packages non-interactively (`apt-get update` first: a fresh
/// machine has no package lists). Only ever called when running as root.
pub fn apt_install(packages: &[&str]) -> Result {
    // Wait for another apt/dpkg run to finish instead of failing on its lock.
    let lock_wait = ["-o", "DPkg::Lock::Timeout=600"];
    run(Command::new("apt-get")
        .args(lock_wait)
        .arg("update")
        .env("DEBIAN_FRONTEND", "noninteractive"))?;
    run(Command::new("apt-get")
        .args(lock_wait)
        .args(["install", "-y"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

/// Formats a byte count the way people read file sizes.
pub fn human_size(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let bytes_f = bytes as f64;
    if bytes_f >= KIB * KIB {
        format!("{:.2} MiB ({:.0} KiB)", bytes_f / KIB / KIB, bytes_f / KIB)
    } else {
        format!("{:.1} KiB", bytes_f / KIB)
    }
}

/// Formats a wall-clock duration for step reports: `4.2s` or `3m07s`.
pub fn human_duration(duration: Duration) -> String {
    let secs = duration.as_secs_f64();
    if secs < 60.0 {
        format!("{secs:.1}s")
    } else {
        let whole = duration.as_secs();
        format!("{}m{:02}s", whole / 60, whole % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_naturally() {
        assert_eq!(human_size(512), "0.5 KiB");
        assert_eq!(human_size(3 * 1024 * 1024 / 2), "1.50 MiB (1536 KiB)");
    }

    #[test]
    fn durations_read_naturally() {
        assert_eq!(human_duration(Duration::from_millis(4200)), "4.2s");
        assert_eq!(human_duration(Duration::from_secs(187)), "3m07s");
    }

    #[test]
    fn commands_show_env_and_quote_spaces() {
        let mut cmd = Command::new("cargo");
        cmd.env("RUSTC_BOOTSTRAP", "1").args(["build", "a b"]);
        assert_eq!(display_command(&cmd), "RUSTC_BOOTSTRAP=1 cargo build 'a b'");
    }

    #[test]
    fn failures_name_the_program_briefly() {
        let mut cmd = Command::new("/root/.rustup/toolchains/stable/bin/cargo");
        cmd.args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]);
        assert_eq!(
            short_command(&cmd),
            "cargo clippy --workspace --all-targets ..."
        );
        assert_eq!(short_command(&Command::new("node")), "node");
    }
}
