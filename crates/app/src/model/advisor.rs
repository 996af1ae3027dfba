//! The Advisor panel's model: the form's fields as the advisor's question, and the
//! advice run a playbook at a time in budgets of virtual seconds, so that the worker
//! can report progress (playbook k of n, seconds done) and hear a cancel between
//! budgets. The engine's `advisor` plans, runs and ranks exactly as `ddlscope advise`
//! does (each playbook run to its end the way `advisor::run_to_end` runs it), so the
//! panel and the CLI give the same ranking (tests.rs checks it against the CLI's
//! golden).

use crate::model::knobs::Knobs;
use crate::model::link::LinkState;
use ddlscope_engine::advisor::{self, Figures, InputBuilder, PlannedPlaybook, PlaybookRun};
use ddlscope_engine::{Profile, Scenario, Tick};
use serde::{Deserialize, Serialize};

/// The form as the user left it: each field's text, blank for "not given". The
/// names are the CLI's flags (`--pool` is `pool`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AdvisorForm {
    /// `(field, value)` for the single-valued fields of [`advisor::FIELDS`].
    pub fields: Vec<(String, String)>,
    /// `NAME=VALUE` server settings, one a line (each a `--set`).
    pub settings: String,
    /// Pasted `SHOW VARIABLES` output, if any.
    pub show_variables: String,
    /// Pasted `SHOW TABLE STATUS` output, if any.
    pub table_status: String,
}

impl AdvisorForm {
    /// The field's text, blank when not given.
    pub fn get(&self, field: &str) -> &str {
        self.fields
            .iter()
            .find(|(f, _)| f == field)
            .map_or("", |(_, v)| v.as_str())
    }

    /// Sets one field (a blank value leaves it out of the question).
    pub fn set(&mut self, field: &str, value: &str) {
        match self.fields.iter_mut().find(|(f, _)| f == field) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.fields.push((field.to_string(), value.to_string())),
        }
    }

    /// The question, in the order the CLI reads it: the fields, the settings, then
    /// the pasted output for what they leave out; and what was assumed. Errors name
    /// the field, as the CLI's do.
    pub fn question(&self) -> Result<(advisor::AdviceInput, Vec<String>), String> {
        let mut b = InputBuilder::new();
        for (field, value) in self.given() {
            b.set(field, value)?;
        }
        if !self.show_variables.trim().is_empty() {
            advisor::read_show_variables(&mut b, &self.show_variables)?;
        }
        if !self.table_status.trim().is_empty() {
            let ddl = self.get("ddl").trim();
            if ddl.is_empty() {
                return Err("--ddl: missing (e.g. \"DROP TABLE big\")".into());
            }
            let table = advisor::Ddl::parse(ddl)?.table;
            advisor::read_table_status(&mut b, &self.table_status, &table)?;
        }
        b.finish()
    }
}

impl AdvisorForm {
    /// The fields given, trimmed, as `(flag, value)` in the order the CLI reads them:
    /// each settings line a `set`.
    fn given(&self) -> impl Iterator<Item = (&'static str, &str)> {
        advisor::FIELDS.into_iter().flat_map(move |field| {
            let values: Vec<&str> = match field {
                "set" => self.settings.lines().map(str::trim).collect(),
                _ => vec![self.get(field).trim()],
            };
            values
                .into_iter()
                .filter(|v| !v.is_empty())
                .map(move |v| (field, v))
        })
    }

    /// The `ddlscope advise` command that asks the same question (pasted output
    /// left out: the CLI reads it from files, `--show-variables FILE`).
    pub fn command_line(&self) -> String {
        let mut out = String::from("ddlscope advise");
        for (field, value) in self.given() {
            out.push_str(&format!(" --{field} {}", shell_word(value)));
        }
        out.push_str(" --json");
        out
    }
}

/// `s` as one word of a POSIX shell: as it is when it is plain, else single-quoted.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=.,:/+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A playbook's line as the panel shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdviceLine {
    /// 1 = try it first.
    pub rank: usize,
    /// The playbook's name.
    pub name: String,
    /// What it does.
    pub summary: String,
    /// Its figures.
    pub figures: Figures,
    /// Its run as a link's state item (`v1.…`): the page opened on it plays the
    /// playbook's scenario, carried whole, from shortly before its first step.
    pub link: String,
}

/// Seconds of workload a playbook's link shows before the playbook's first step.
const LINK_LEAD_S: u64 = 3;

/// The link of a playbook's run: its scenario carried whole (`ddlscope_moment::own`),
/// its script run, on its profile, playing at 1× from [`LINK_LEAD_S`] before its
/// first step (the baseline before that is already run when the page opens).
pub fn run_link(scenario: &Scenario) -> String {
    let first_step_s = advisor::first_step_s(scenario).unwrap_or(0);
    LinkState {
        scenario: scenario.name.clone(),
        own: Some(Box::new(scenario.clone())),
        engine: scenario.profile.clone(),
        knobs: Knobs {
            script: Some(true),
            ..Knobs::default()
        },
        t: Tick::from_secs(first_step_s.saturating_sub(LINK_LEAD_S)),
        ..LinkState::default()
    }
    .encode()
}

/// The advice as the panel shows it, sent from the worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AdviceView {
    /// Best first.
    pub rows: Vec<AdviceLine>,
    /// What was taken from pasted output and what was assumed.
    pub assumptions: Vec<String>,
}

impl From<&Advice> for AdviceView {
    fn from(a: &Advice) -> AdviceView {
        AdviceView {
            rows: a
                .rows
                .iter()
                .map(|r| AdviceLine {
                    rank: r.rank,
                    name: r.name.clone(),
                    summary: r.summary.clone(),
                    figures: r.figures.clone(),
                    link: run_link(&r.scenario),
                })
                .collect(),
            assumptions: a.assumptions.clone(),
        }
    }
}

/// Where the advice is: the playbook running (1-based) of how many, its name and the
/// virtual seconds it has run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// The playbook running, 1 = the first.
    pub playbook: usize,
    /// How many playbooks the advice runs.
    pub of: usize,
    /// Its name.
    pub name: String,
    /// Virtual seconds it has run.
    pub seconds: u64,
}

/// One line of the ranked table.
#[derive(Clone, Debug, PartialEq)]
pub struct AdviceRow {
    /// 1 = try it first.
    pub rank: usize,
    /// The playbook's name.
    pub name: String,
    /// What it does.
    pub summary: String,
    /// Its figures.
    pub figures: Figures,
    /// The scenario that replays its run (`seconds` set to the run's length).
    pub scenario: Scenario,
}

/// The finished advice: best first, and what was assumed.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// Best first.
    pub rows: Vec<AdviceRow>,
    /// What was taken from pasted output and what was assumed.
    pub assumptions: Vec<String>,
}

/// The advice being run, one playbook after another.
#[derive(Debug)]
pub struct AdviceJob {
    planned: Vec<PlannedPlaybook>,
    assumptions: Vec<String>,
    running: Option<(Scenario, PlaybookRun)>,
    done: Vec<(Scenario, Figures)>,
}

impl AdviceJob {
    /// Plans the advice for `form`; refuses input it cannot model, naming the field.
    pub fn start(form: &AdvisorForm) -> Result<AdviceJob, String> {
        let (input, mut assumptions) = form.question()?;
        let (planned, notes) = advisor::plan(&input)?;
        assumptions.extend(notes);
        Ok(AdviceJob {
            planned,
            assumptions,
            running: None,
            done: Vec::new(),
        })
    }

    /// How many playbooks the advice runs.
    pub fn len(&self) -> usize {
        self.planned.len()
    }

    /// Whether no playbook applies.
    pub fn is_empty(&self) -> bool {
        self.planned.is_empty()
    }

    /// Runs up to `budget_s` virtual seconds; where the advice is after them, or
    /// `None` once every playbook has run.
    pub fn advance(&mut self, budget_s: u64) -> Result<Option<Progress>, String> {
        let mut left = budget_s.max(1);
        while left > 0 {
            if self.running.is_none() {
                let Some(p) = self.planned.get(self.done.len()) else {
                    return Ok(None);
                };
                // As advisor::run_to_end: the run's scenario is MAX_RUN_S long.
                let mut scenario = p.scenario.clone();
                scenario.seconds = advisor::MAX_RUN_S;
                let profile = Profile::builtin(&scenario.profile)?;
                let run = PlaybookRun::new(scenario.clone(), profile)?;
                self.running = Some((scenario, run));
            }
            let (_, run) = self.running.as_mut().expect("started above");
            if run.seconds() < advisor::MAX_RUN_S && !run.settled() {
                run.second();
                left -= 1;
                continue;
            }
            let (mut scenario, run) = self.running.take().expect("started above");
            scenario.seconds = run.seconds();
            self.done.push((scenario, run.figures()));
        }
        Ok(Some(self.progress()))
    }

    /// Where the advice is now.
    pub fn progress(&self) -> Progress {
        let k = self.done.len().min(self.planned.len().saturating_sub(1));
        Progress {
            playbook: k + 1,
            of: self.planned.len(),
            name: self
                .planned
                .get(k)
                .map_or(String::new(), |p| p.playbook.name.clone()),
            seconds: self.running.as_ref().map_or(0, |(_, r)| r.seconds()),
        }
    }

    /// The ranked advice, once [`AdviceJob::advance`] returned `None`.
    pub fn finish(self) -> Result<Advice, String> {
        if self.done.len() < self.planned.len() {
            return Err(format!(
                "the advice has run {} of {} playbooks",
                self.done.len(),
                self.planned.len()
            ));
        }
        let figures: Vec<Figures> = self.done.iter().map(|(_, f)| f.clone()).collect();
        let rows = advisor::rank(&figures)
            .into_iter()
            .enumerate()
            .map(|(rank, i)| AdviceRow {
                rank: rank + 1,
                name: self.planned[i].playbook.name.clone(),
                summary: self.planned[i].playbook.summary.clone(),
                figures: figures[i].clone(),
                scenario: self.done[i].0.clone(),
            })
            .collect();
        Ok(Advice {
            rows,
            assumptions: self.assumptions,
        })
    }
}

#[cfg(test)]
mod tests;
