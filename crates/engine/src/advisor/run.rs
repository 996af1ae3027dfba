//! A playbook's run: the simulation stepped a virtual second at a time, with what the
//! score needs kept beside it (the samples, the disk space each second, when each step
//! ended and how, the latencies from the first step on). `ddlscope run --figures` watches a replay the same way, so the
//! advice and the replay of its scenario give the same figures.

use super::score::{score, Figures, Timeline};
use crate::events::EventKind;
use crate::metrics::Sample;
use crate::profile::Profile;
use crate::scenario::Scenario;
use crate::sim::Sim;
use crate::time::Tick;

/// Seconds a run goes on after its last step ended: what follows a DDL (a file freed
/// late, writes catching up) counts too.
pub const TAIL_S: u64 = 5;

/// When a playbook's first step comes, virtual seconds: the playbook's steps are
/// the console's; another client's (an open transaction) are the conditions it
/// runs in. `None` without a step.
pub fn first_step_s(scenario: &Scenario) -> Option<u64> {
    scenario
        .script
        .iter()
        .filter(|s| s.session == 0)
        .map(|s| s.at_s)
        .min()
}

/// One run being watched.
#[derive(Debug)]
pub struct PlaybookRun {
    sim: Sim,
    samples: Vec<Sample>,
    disk_bytes: Vec<u64>,
    /// Step endings still to come: a statement's `StatementFinished` on the console
    /// session, a shell line's `ShellDone`.
    pending: usize,
    events_seen: u64,
    last_end: Tick,
    step_errors: Vec<String>,
    first_step_s: u64,
    /// The steps that start an online schema-change tool: each ends when its tool
    /// finished or failed (`Sim::tools`).
    tool_steps: usize,
}

/// How many endings `scenario`'s console statements and shell lines make: one a
/// statement, one a shell line (a tool's step ends with its tool, [`PlaybookRun::ended`]).
fn endings(scenario: &Scenario) -> usize {
    scenario
        .script
        .iter()
        .filter(|s| s.tool.is_empty() && s.session == 0)
        .map(|s| match s.sql.is_empty() {
            true => 1,
            false => crate::sql::parse(&s.sql).map_or(1, |p| p.len()),
        })
        .sum()
}

impl PlaybookRun {
    /// The server of `scenario` running `profile`, at time zero; its first step must
    /// come after the baseline's seconds.
    pub fn new(scenario: Scenario, profile: Profile) -> Result<PlaybookRun, String> {
        let first_step_s =
            first_step_s(&scenario).ok_or("the scenario has no [[script]] steps to score")?;
        if first_step_s < 5 {
            return Err(format!(
                "the first [[script]] step is at {first_step_s} s: figures need at least 5 s of workload before it"
            ));
        }
        let pending = endings(&scenario);
        let tool_steps = scenario
            .script
            .iter()
            .filter(|s| !s.tool.is_empty())
            .count();
        let sim = Sim::new(scenario, profile)?;
        let disk_bytes = vec![sim.disk_used_bytes()];
        Ok(PlaybookRun {
            sim,
            samples: Vec::new(),
            disk_bytes,
            pending,
            events_seen: 0,
            last_end: Tick::ZERO,
            step_errors: Vec::new(),
            first_step_s,
            tool_steps,
        })
    }

    /// Runs one more virtual second and notes what the score needs.
    pub fn second(&mut self) {
        if self.sim.now() == Tick::from_secs(self.first_step_s) {
            // The p99 counts from the first step, corrected for coordinated omission
            // with the baseline's mean latency as the expected time between events.
            let base = super::score::baseline_latency_ms(&self.samples, self.first_step_s);
            self.sim
                .open_latency_span(Tick::from_us((base * 1000.0) as u64));
        }
        let next = self.sim.now() + Tick::SECOND;
        self.sim.run_until(next);
        let console = self.sim.console_session();
        for e in self.sim.events_since(self.events_seen) {
            let failed = match &e.kind {
                EventKind::StatementFinished {
                    session,
                    sql,
                    result,
                    error,
                    ..
                } if *session == console => error.then(|| format!("{sql}: {result}")),
                EventKind::ShellDone {
                    line,
                    result,
                    error,
                } => error.then(|| format!("$ {line}: {result}")),
                _ => continue,
            };
            self.pending = self.pending.saturating_sub(1);
            self.last_end = self.last_end.max(e.at);
            self.step_errors.extend(failed);
        }
        self.events_seen = self.sim.event_count();
        let seen = self.samples.len() as u64;
        self.samples.extend_from_slice(self.sim.samples_since(seen));
        self.disk_bytes.push(self.sim.disk_used_bytes());
    }

    /// When the last step ended, once every step has: a tool's when it finished
    /// (a failed tool ends the step where the others ended).
    pub fn ended(&self) -> Option<Tick> {
        let tools = self.sim.tools();
        if self.pending > 0 || tools.len() < self.tool_steps {
            return None;
        }
        tools
            .iter()
            .try_fold(self.last_end, |end, t| match &t.failed {
                Some(_) => Some(end),
                None => t.finished_at.map(|at| end.max(at)),
            })
    }

    /// The steps' errors, the tools' failures among them.
    fn errors(&self) -> Vec<String> {
        let failed = self.sim.tools().iter().filter_map(|t| {
            t.failed
                .as_ref()
                .map(|why| format!("{} on {}: {why}", t.tool, t.table))
        });
        self.step_errors.iter().cloned().chain(failed).collect()
    }

    /// Whether the run has gone [`TAIL_S`] past its last step's end.
    pub fn settled(&self) -> bool {
        self.ended()
            .is_some_and(|end| self.sim.now() >= end + Tick::from_secs(TAIL_S))
    }

    /// The virtual seconds run so far.
    pub fn seconds(&self) -> u64 {
        self.sim.now().as_ns() / Tick::SECOND.as_ns()
    }

    /// The simulation, for its views.
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// The figures of the run so far.
    pub fn figures(&self) -> Figures {
        score(&Timeline {
            samples: &self.samples,
            disk_bytes: &self.disk_bytes,
            first_step_s: self.first_step_s,
            ended: self.ended(),
            p99_ms: self.sim.latency_span_p99_ms().unwrap_or(0.0),
            step_errors: self.errors(),
        })
    }
}

/// Runs `scenario` until its steps have ended and [`TAIL_S`] more seconds passed, or
/// `max_s` virtual seconds; `progress` hears each second. Returns the scenario with
/// `seconds` set to the run's length (a replay of it gives the same figures) and the
/// figures.
pub fn run_to_end(
    mut scenario: Scenario,
    profile: Profile,
    max_s: u64,
    progress: &mut dyn FnMut(u64),
) -> Result<(Scenario, Figures), String> {
    scenario.seconds = max_s;
    let mut run = PlaybookRun::new(scenario.clone(), profile)?;
    while run.seconds() < max_s && !run.settled() {
        run.second();
        progress(run.seconds());
    }
    scenario.seconds = run.seconds();
    Ok((scenario, run.figures()))
}
