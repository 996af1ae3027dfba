//! `check`: runs every question of a lesson headless and sets its stated answer beside
//! what the simulation shows, so a lesson cannot drift from the engine.

use super::observe::Observation;
use super::plan::LessonRun;
use super::{Lesson, Question, QuestionKind, Step};

/// One question, checked on one run.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionCheck {
    /// The step (1-based, as the player shows it).
    pub step: usize,
    /// The question's line in the file.
    pub line: u32,
    /// For a quiz: the variant (1-based) and the seed.
    pub variant: Option<(usize, u64)>,
    /// The stated answer.
    pub expected: String,
    /// What the simulation showed.
    pub observed: Observation,
    /// Whether they agree.
    pub ok: bool,
}

/// Every question of a lesson, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// The lesson.
    pub lesson: String,
    /// Steps run.
    pub steps: usize,
    /// Each question on each run.
    pub questions: Vec<QuestionCheck>,
}

impl CheckReport {
    /// Whether every answer holds.
    pub fn ok(&self) -> bool {
        self.questions.iter().all(|q| q.ok)
    }
}

/// One run a question is checked on, as `check` lists them (a step without variants
/// has one, with no variant).
type VariantRun = (usize, usize, Option<(usize, u64)>);

/// Runs each step of `lesson` that asks a question, for every variant and seed of a
/// quiz, to the question's moment, and compares. `progress` hears what runs.
pub fn check(lesson: &Lesson, progress: &mut dyn FnMut(&str)) -> Result<CheckReport, String> {
    let mut questions = Vec::new();
    // One run per chapter, carried from question to question while time moves on.
    let mut chapter: Option<(usize, LessonRun)> = None;
    for (i, step) in lesson.steps.iter().enumerate() {
        let Some(q) = &step.question else { continue };
        let start = lesson.steps[..=i]
            .iter()
            .rposition(Step::starts_chapter)
            .unwrap_or(0);
        let runs: Vec<VariantRun> = match step.variants.as_slice() {
            [] => vec![(0, 0, None)],
            vs => vs
                .iter()
                .enumerate()
                .flat_map(|(v, var)| {
                    var.seeds
                        .iter()
                        .enumerate()
                        .map(move |(s, seed)| (v, s, Some((v + 1, *seed))))
                })
                .collect(),
        };
        for (v, s, label) in runs {
            let plan = lesson
                .plan(i, v, s)
                .ok_or_else(|| format!("step {} has no set-up", i + 1))?;
            progress(&format!(
                "{} step {}{}: {} on {} to {}",
                lesson.id,
                i + 1,
                label.map_or(String::new(), |(v, s)| format!(" variant {v} seed {s}")),
                plan.setup.scenario,
                plan.setup.engine_name()?,
                q.at
            ));
            let reuse = label.is_none()
                && chapter
                    .as_ref()
                    .is_some_and(|(c, r)| *c == start && r.main.now() <= q.at);
            if !reuse {
                chapter = Some((start, LessonRun::start(&plan)?));
            }
            let (_, run) = chapter.as_mut().expect("set just above");
            run.extend(&plan);
            run.run_until(q.at)?;
            let observed = run.observe(&q.observe);
            let (expected, ok) = verdict(q, plan.answer, &observed);
            questions.push(QuestionCheck {
                step: i + 1,
                line: q.line,
                variant: label,
                expected,
                observed,
                ok,
            });
            if label.is_some() {
                chapter = None;
            }
        }
    }
    Ok(CheckReport {
        lesson: lesson.id.clone(),
        steps: lesson.steps.len(),
        questions,
    })
}

/// The stated answer, and whether `observed` bears it out.
fn verdict(q: &Question, variant_answer: Option<&str>, observed: &Observation) -> (String, bool) {
    match &q.kind {
        QuestionKind::Number {
            answer,
            tolerance,
            unit,
        } => {
            let ok = matches!(observed, Observation::Number(x) if (x - answer).abs() <= *tolerance);
            (
                format!("{answer} ± {tolerance} {unit}")
                    .trim_end()
                    .to_string(),
                ok,
            )
        }
        QuestionKind::Choice { choices, answer } => {
            let right = variant_answer
                .or(answer.map(|i| choices[i].as_str()))
                .unwrap_or_default();
            // The right choice names what happened, and no other choice does.
            let ok = q.observe.matches(right, observed)
                && choices
                    .iter()
                    .filter(|c| c.as_str() != right)
                    .all(|c| !q.observe.matches(c, observed));
            (right.to_string(), ok)
        }
    }
}
