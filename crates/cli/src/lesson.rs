//! `ddlscope lesson check [FILE]...`: runs every question of the lessons headless and
//! fails when a stated answer is not what the simulation shows.

use ddlscope_engine::lesson::{self, CheckReport, Lesson};
use std::io::{self, Write};

/// The lessons named by `files` (paths of lesson files), or every built-in one.
fn lessons(files: &[String]) -> Result<Vec<Lesson>, String> {
    if files.is_empty() {
        return lesson::builtin().into_iter().collect();
    }
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
            lesson::parse(f, &text)
        })
        .collect()
}

/// One line per question: the step, the stated answer, what the simulation showed.
fn render(report: &CheckReport, out: &mut dyn Write) -> io::Result<()> {
    let verdict = if report.ok() { "ok" } else { "FAILED" };
    writeln!(
        out,
        "{}: {} steps, {} questions checked: {verdict}",
        report.lesson,
        report.steps,
        report.questions.len()
    )?;
    for q in &report.questions {
        let variant = q
            .variant
            .map_or(String::new(), |(v, s)| format!(" variant {v} seed {s}"));
        writeln!(
            out,
            "  {} step {}{variant} (line {}): stated {}, simulated {}",
            if q.ok { "ok  " } else { "FAIL" },
            q.step,
            q.line,
            q.expected,
            q.observed
        )?;
    }
    Ok(())
}

/// Checks the lessons, each on its own engine and, a core allowing, its own thread;
/// the reports come out in the lessons' order. `Ok(false)` when an answer does not
/// hold.
pub fn check(files: &[String], out: &mut dyn Write) -> Result<bool, crate::error::CliError> {
    let lessons = lessons(files)?;
    let mut all_ok = true;
    for report in crate::parallel::map(&lessons, check_one) {
        let report = report?;
        render(&report, out)?;
        all_ok &= report.ok();
    }
    Ok(all_ok)
}

fn check_one(l: &Lesson) -> Result<CheckReport, String> {
    let name = l.id.clone();
    lesson::check(l, &mut |what| eprintln!("# {name}: {what}…"))
}
