//! What opening a step means: the set-up it runs on, the statements since that
//! set-up, the moment it opens at and where it pauses ([`Plan`]); and a headless run
//! of a plan ([`LessonRun`]), which `check` uses and the app mirrors with its runner.

use super::observe::{Observation, Observe};
use super::{Action, Lesson, Setup, Step};
use crate::profile::Profile;
use crate::scenario::Scenario;
use crate::sim::Sim;
use crate::time::Tick;

/// A step, ready to replay.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan<'a> {
    /// The server.
    pub setup: &'a Setup,
    /// The seed drawn for a quiz variant (else the set-up's own).
    pub seed: Option<u64>,
    /// The chapter's statements up to this step, in time order.
    pub actions: Vec<&'a Action>,
    /// Every session the chapter names, `s1` (the console's) first, the others
    /// connected at time zero in order of first appearance.
    pub sessions: Vec<String>,
    /// Where the step opens.
    pub open_at: Tick,
    /// Where it pauses, if it does.
    pub pause_at: Option<Tick>,
    /// Its speed, if it sets one.
    pub speed: Option<f64>,
    /// A quiz variant's right choice.
    pub answer: Option<&'a str>,
}

impl Setup {
    /// The scenario with the settings applied, `seed` overriding, its own script
    /// taken out unless the set-up keeps it: a lesson's statements are its actions.
    pub fn scenario(&self, seed: Option<u64>) -> Result<Scenario, String> {
        let mut s = Scenario::builtin(&self.scenario)?;
        if !self.script {
            s.script.clear();
        }
        let k = &self.settings;
        if let Some(p) = k.pool {
            s.buffer_pool.size = p;
        }
        if let Some(n) = k.instances {
            s.buffer_pool.instances = n;
        }
        if let Some(on) = k.ahi {
            s.innodb.adaptive_hash_index = on;
        }
        if let Some(fs) = k.file_system {
            s.file_system.kind = fs;
        }
        if let Some(d) = k.device {
            s.device.kind = d;
        }
        if let Some(w) = k.workload {
            s.workload.kind = w;
        }
        if let Some(n) = k.threads {
            s.workload.threads = n;
        }
        if let Some(seed) = seed.or(k.seed) {
            s.seed = seed;
        }
        Ok(s)
    }

    /// The main engine's profile name.
    pub fn engine_name(&self) -> Result<String, String> {
        match &self.engine {
            Some(e) => Ok(e.clone()),
            None => Ok(Scenario::builtin(&self.scenario)?.profile),
        }
    }
}

impl Step {
    /// Whether the step starts a chapter (a set-up or a quiz).
    pub fn starts_chapter(&self) -> bool {
        self.setup.is_some() || !self.variants.is_empty()
    }

    /// Where the run stands when the step is done: its pause, its question's moment,
    /// or where it opened.
    fn end(&self, open_at: Tick) -> Tick {
        self.pause_at
            .or(self.question.as_ref().map(|q| q.at))
            .unwrap_or(open_at)
    }
}

impl Lesson {
    /// The plan of step `index`; `variant` and `seed` pick a quiz's set-up and seed
    /// (indexes, taken modulo their counts; ignored for other steps).
    pub fn plan(&self, index: usize, variant: usize, seed: usize) -> Option<Plan<'_>> {
        let step = self.steps.get(index)?;
        let start = self.steps[..=index]
            .iter()
            .rposition(Step::starts_chapter)?;
        let end = self.steps[index + 1..]
            .iter()
            .position(Step::starts_chapter)
            .map_or(self.steps.len(), |n| index + 1 + n);
        let first = &self.steps[start];
        let (setup, seed, answer, variant_actions) = match first.variants.as_slice() {
            [] => (first.setup.as_ref()?, None, None, Vec::new()),
            vs => {
                let v = &vs[variant % vs.len()];
                let s = v.seeds[seed % v.seeds.len()];
                (
                    &v.setup,
                    Some(s),
                    Some(v.answer.as_str()),
                    v.actions.iter().collect(),
                )
            }
        };
        let upto = |last: usize| -> Vec<&Action> {
            variant_actions
                .iter()
                .copied()
                .chain(self.steps[start..=last].iter().flat_map(|s| &s.actions))
                .collect()
        };
        let mut sessions = vec!["s1".to_string()];
        for a in upto(end - 1) {
            if !sessions.contains(&a.session) {
                sessions.push(a.session.clone());
            }
        }
        Some(Plan {
            setup,
            seed,
            actions: upto(index),
            sessions,
            open_at: self.open_at(start, index),
            pause_at: step.pause_at,
            speed: step.speed,
            answer,
        })
    }

    /// Where step `index` of the chapter starting at `start` opens.
    fn open_at(&self, start: usize, index: usize) -> Tick {
        let mut at = Tick::ZERO;
        for (i, s) in self.steps[start..=index].iter().enumerate() {
            let opened = s.seek.unwrap_or(if i == 0 { Tick::ZERO } else { at });
            at = if start + i == index {
                opened
            } else {
                s.end(opened)
            };
        }
        at
    }
}

/// A plan run headless: the main engine (and the compare engine), the sessions
/// connected, the statements sent as the clock reaches them.
#[derive(Debug)]
pub struct LessonRun {
    /// The main engine.
    pub main: Sim,
    /// The compare engine, if the set-up has one.
    pub compare: Option<Sim>,
    /// The lesson's session names with their processlist ids.
    pub sessions: Vec<(String, u32)>,
    actions: Vec<Action>,
    sent: usize,
}

impl LessonRun {
    /// Builds the engines of `plan` at time zero and connects its sessions.
    pub fn start(plan: &Plan) -> Result<LessonRun, String> {
        let scenario = plan.setup.scenario(plan.seed)?;
        let build = |profile: &str| -> Result<Sim, String> {
            Sim::new(scenario.clone(), Profile::builtin(profile)?)
        };
        let mut main = build(&plan.setup.engine_name()?)?;
        let mut compare = plan.setup.compare.as_deref().map(build).transpose()?;
        let mut sessions = vec![("s1".to_string(), main.console_session())];
        for name in &plan.sessions[1..] {
            let id = main.connect();
            if let Some(c) = compare.as_mut() {
                c.connect();
            }
            sessions.push((name.clone(), id));
        }
        Ok(LessonRun {
            main,
            compare,
            sessions,
            actions: plan.actions.iter().map(|a| (*a).clone()).collect(),
            sent: 0,
        })
    }

    /// Takes on the statements of `plan` (the same chapter, a later step) that this
    /// run has not had yet.
    pub fn extend(&mut self, plan: &Plan) {
        for a in plan.actions.iter().skip(self.actions.len()) {
            self.actions.push((*a).clone());
        }
    }

    /// Runs both engines to `t`, sending each statement when its time comes. A
    /// statement the server refuses outright (an unknown session) is an error naming
    /// its line.
    pub fn run_until(&mut self, t: Tick) -> Result<(), String> {
        while let Some(a) = self.actions.get(self.sent).filter(|a| a.at <= t) {
            let a = a.clone();
            self.advance(a.at);
            let id = self
                .sessions
                .iter()
                .find(|(n, _)| *n == a.session)
                .map(|(_, id)| *id)
                .ok_or_else(|| format!("line {}: unknown session '{}'", a.line, a.session))?;
            for sim in std::iter::once(&mut self.main).chain(self.compare.as_mut()) {
                sim.submit_to(id, &a.sql)
                    .map_err(|e| format!("line {}: {e}", a.line))?;
            }
            self.sent += 1;
        }
        self.advance(t);
        Ok(())
    }

    fn advance(&mut self, t: Tick) {
        for sim in std::iter::once(&mut self.main).chain(self.compare.as_mut()) {
            if sim.now() < t {
                sim.run_until(t);
            }
        }
    }

    /// Measures `observe` now.
    pub fn observe(&self, observe: &Observe) -> Observation {
        observe.measure(&self.main, self.compare.as_ref(), &self.sessions)
    }
}
