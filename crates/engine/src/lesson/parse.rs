//! Reading a lesson file: the TOML shape (`Raw*`), then each field checked, every
//! error naming the file and the line (`assets/lessons/x.toml:12: step 3 ...`).

use super::observe::Observe;
use super::{
    Action, Highlight, Lesson, Panel, Question, QuestionKind, Settings, Setup, Step, Variant,
};
use crate::size::ByteSize;
use crate::time::Tick;
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLesson {
    id: String,
    title: String,
    audience: String,
    duration: String,
    #[serde(default)]
    steps: Vec<Spanned<RawStep>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStep {
    title: String,
    narration: String,
    #[serde(default)]
    notes: String,
    #[serde(default, rename = "continue")]
    continues: bool,
    setup: Option<RawSetup>,
    #[serde(default)]
    variants: Vec<Spanned<RawVariant>>,
    #[serde(default)]
    actions: Vec<Spanned<RawAction>>,
    seek: Option<String>,
    speed: Option<f64>,
    pause_at: Option<String>,
    #[serde(default)]
    highlight: Vec<Spanned<RawHighlight>>,
    #[serde(default)]
    hide: Vec<String>,
    question: Option<Spanned<RawQuestion>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSetup {
    scenario: String,
    engine: Option<String>,
    compare: Option<String>,
    #[serde(default)]
    settings: RawSettings,
    #[serde(default)]
    script: bool,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSettings {
    pool: Option<String>,
    instances: Option<u16>,
    ahi: Option<bool>,
    file_system: Option<crate::fs::FileSystemKind>,
    device: Option<crate::device::DeviceKind>,
    workload: Option<crate::workload::WorkloadKind>,
    threads: Option<u32>,
    seed: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawVariant {
    setup: RawSetup,
    #[serde(default)]
    actions: Vec<Spanned<RawAction>>,
    answer: String,
    seeds: Vec<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAction {
    at: String,
    session: String,
    sql: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHighlight {
    panel: Option<String>,
    latch: Option<String>,
    mdl_table: Option<String>,
    session: Option<String>,
    chart: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuestion {
    prompt: String,
    #[serde(default)]
    choices: Vec<String>,
    answer: Option<toml::Value>,
    tolerance: Option<toml::Value>,
    #[serde(default)]
    unit: String,
    observe: super::observe::RawObserve,
    at: Option<String>,
    #[serde(default)]
    explain: String,
}

/// Turns byte offsets into `file:line: ` prefixes.
struct Lines<'a> {
    file: &'a str,
    text: &'a str,
}

impl Lines<'_> {
    fn line(&self, offset: usize) -> u32 {
        let end = offset.min(self.text.len());
        self.text[..end].matches('\n').count() as u32 + 1
    }

    fn at(&self, line: u32, msg: impl std::fmt::Display) -> String {
        format!("{}:{line}: {msg}", self.file)
    }
}

/// Reads lesson `file`'s `text`.
pub(super) fn lesson(file: &str, text: &str) -> Result<Lesson, String> {
    let lines = Lines { file, text };
    let raw: RawLesson = toml::from_str(text).map_err(|e| {
        let line = e.span().map_or(1, |s| lines.line(s.start));
        lines.at(line, e.message().trim())
    })?;
    if !valid_id(&raw.id) {
        return Err(lines.at(
            1,
            format!("id '{}': use lower-case letters, digits and -", raw.id),
        ));
    }
    if raw.steps.is_empty() {
        return Err(lines.at(1, "the lesson has no [[steps]]"));
    }
    let mut steps: Vec<Step> = Vec::new();
    for (i, spanned) in raw.steps.into_iter().enumerate() {
        let line = lines.line(spanned.span().start);
        let raw = spanned.into_inner();
        let title = raw.title.clone();
        let step = step(&lines, line, raw, &steps)
            .map_err(|(l, m)| lines.at(l, format!("step {} '{title}': {m}", i + 1)))?;
        steps.push(step);
    }
    Ok(Lesson {
        id: raw.id,
        title: raw.title,
        audience: raw.audience,
        duration: raw.duration,
        steps,
    })
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// An error at a line.
type Fail = (u32, String);

fn step(lines: &Lines, line: u32, raw: RawStep, before: &[Step]) -> Result<Step, Fail> {
    let fail = |m: String| (line, m);
    let starts = [raw.continues, raw.setup.is_some(), !raw.variants.is_empty()];
    if starts.iter().filter(|b| **b).count() != 1 {
        return Err(fail(
            "give exactly one of setup = {...}, [[steps.variants]] or continue = true".into(),
        ));
    }
    if raw.continues && before.is_empty() {
        return Err(fail(
            "the first step cannot continue: give it a setup".into(),
        ));
    }
    let setup = raw.setup.map(|s| setup(s).map_err(fail)).transpose()?;
    let variants = raw
        .variants
        .into_iter()
        .map(|v| variant(lines, v))
        .collect::<Result<Vec<_>, _>>()?;
    let actions = actions(lines, raw.actions)?;
    let time = |what: &str, t: &Option<String>| -> Result<Option<Tick>, Fail> {
        t.as_deref()
            .map(|s| duration(what, s).map_err(fail))
            .transpose()
    };
    let seek = time("seek", &raw.seek)?;
    let pause_at = time("pause_at", &raw.pause_at)?;
    if let (Some(s), Some(p)) = (seek, pause_at) {
        if p < s {
            return Err(fail(format!("pause_at {p} is before seek {s}")));
        }
    }
    if let Some(x) = raw.speed {
        if !(0.05..=1000.0).contains(&x) {
            return Err(fail(format!("speed {x}: from 0.05 to 1000")));
        }
    }
    let highlights = raw
        .highlight
        .into_iter()
        .map(|h| {
            let l = lines.line(h.span().start);
            highlight(h.into_inner()).map_err(|m| (l, m))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let hide = raw
        .hide
        .iter()
        .map(|p| panel(p).map_err(fail))
        .collect::<Result<Vec<_>, _>>()?;
    let mut s = Step {
        title: raw.title,
        narration: raw.narration,
        notes: raw.notes,
        setup,
        variants,
        actions,
        seek,
        speed: raw.speed,
        pause_at,
        highlights,
        hide,
        question: None,
        line,
    };
    if let Some(q) = raw.question {
        let l = lines.line(q.span().start);
        let mut q = question(q.into_inner(), &s).map_err(|m| (l, m))?;
        q.line = l;
        s.question = Some(q);
    }
    check_chapter(&s, before)?;
    Ok(s)
}

/// The statements since the chapter's set-up run in time order; the sessions a
/// question or highlight names send something.
fn check_chapter(step: &Step, before: &[Step]) -> Result<(), Fail> {
    let chapter: Vec<&Step> = if step.setup.is_some() || !step.variants.is_empty() {
        vec![step]
    } else {
        let start = before
            .iter()
            .rposition(|s| s.setup.is_some() || !s.variants.is_empty())
            .unwrap_or(0);
        if !before[start].variants.is_empty() {
            return Err((
                step.line,
                "a quiz step (variants) cannot be continued".into(),
            ));
        }
        before[start..].iter().chain([step]).collect()
    };
    let mut last = Tick::ZERO;
    for a in chapter.iter().flat_map(|s| &s.actions) {
        if a.at < last {
            return Err((
                a.line,
                format!("statement at {} comes before one at {last}: keep the chapter's statements in time order", a.at),
            ));
        }
        last = a.at;
    }
    let sessions: Vec<&str> = chapter
        .iter()
        .flat_map(|s| &s.actions)
        .chain(step.variants.iter().flat_map(|v| &v.actions))
        .map(|a| a.session.as_str())
        .collect();
    let named = |n: &str| n == "s1" || sessions.contains(&n);
    for h in &step.highlights {
        if let Highlight::Session(n) = h {
            if !named(n) {
                return Err((
                    step.line,
                    format!("highlight: session '{n}' sends nothing in this chapter"),
                ));
            }
        }
    }
    if let Some(q) = &step.question {
        if let Some(n) = q.observe.session().filter(|n| !named(n)) {
            return Err((
                q.line,
                format!("observe: session '{n}' sends nothing in this chapter"),
            ));
        }
        let compare = chapter[0]
            .setup
            .as_ref()
            .is_some_and(|s| s.compare.is_some());
        if q.observe.needs_compare() && !compare {
            return Err((
                q.line,
                "observe: this needs a compare engine in the set-up".into(),
            ));
        }
    }
    Ok(())
}

fn duration(what: &str, s: &str) -> Result<Tick, String> {
    Tick::parse_duration(s).ok_or_else(|| format!("{what} '{s}': use 250ms, 2s or 1.5s"))
}

fn setup(raw: RawSetup) -> Result<Setup, String> {
    if crate::builtin::scenario_text(&raw.scenario).is_none() {
        return Err(crate::scenario::Scenario::builtin(&raw.scenario)
            .err()
            .unwrap_or_default());
    }
    for p in raw.engine.iter().chain(&raw.compare) {
        crate::profile::Profile::check_builtin(p)?;
    }
    let s = raw.settings;
    let pool = s
        .pool
        .as_deref()
        .map(|p| ByteSize::parse(p).map_err(|e| format!("settings.pool '{p}': {e}")))
        .transpose()?;
    Ok(Setup {
        scenario: raw.scenario,
        engine: raw.engine,
        compare: raw.compare,
        script: raw.script,
        settings: Settings {
            pool,
            instances: s.instances,
            ahi: s.ahi,
            file_system: s.file_system,
            device: s.device,
            workload: s.workload,
            threads: s.threads,
            seed: s.seed,
        },
    })
}

fn variant(lines: &Lines, raw: Spanned<RawVariant>) -> Result<Variant, Fail> {
    let line = lines.line(raw.span().start);
    let raw = raw.into_inner();
    let setup = setup(raw.setup).map_err(|m| (line, format!("variant: {m}")))?;
    if raw.seeds.is_empty() {
        return Err((
            line,
            "variant: seeds = [...] needs at least one seed".into(),
        ));
    }
    Ok(Variant {
        setup,
        actions: actions(lines, raw.actions)?,
        answer: raw.answer,
        seeds: raw.seeds,
        line,
    })
}

fn actions(lines: &Lines, raw: Vec<Spanned<RawAction>>) -> Result<Vec<Action>, Fail> {
    raw.into_iter()
        .map(|a| {
            let line = lines.line(a.span().start);
            let a = a.into_inner();
            let fail = |m: String| (line, m);
            let at = duration("at", &a.at).map_err(fail)?;
            if a.session.is_empty()
                || !a
                    .session
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                return Err(fail(format!(
                    "session '{}': use letters, digits and _",
                    a.session
                )));
            }
            crate::sql::parse(&a.sql).map_err(|e| fail(e.to_string()))?;
            Ok(Action {
                at,
                session: a.session,
                sql: a.sql,
                line,
            })
        })
        .collect()
}

fn panel(name: &str) -> Result<Panel, String> {
    Panel::named(name).ok_or_else(|| {
        let names: Vec<&str> = Panel::ALL.iter().map(|(_, n)| *n).collect();
        format!("panel '{name}': one of {}", names.join(", "))
    })
}

fn highlight(raw: RawHighlight) -> Result<Highlight, String> {
    let given = [
        &raw.panel,
        &raw.latch,
        &raw.mdl_table,
        &raw.session,
        &raw.chart,
    ];
    if given.iter().filter(|g| g.is_some()).count() != 1 {
        return Err("a highlight is one of { panel = ... }, { latch = ... }, { mdl_table = ... }, { session = ... }, { chart = ... }".into());
    }
    if let Some(c) = raw.chart {
        if !super::CHARTS.contains(&c.as_str()) {
            return Err(format!("chart '{c}': one of {}", super::CHARTS.join(", ")));
        }
        return Ok(Highlight::Chart(c));
    }
    Ok(if let Some(p) = raw.panel {
        Highlight::Panel(panel(&p)?)
    } else if let Some(l) = raw.latch {
        const LATCHES: [&str; 3] = ["LOCK_open", "dict_sys", "fil_sys"];
        let pool = l
            .strip_prefix("buf_pool[")
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|n| n.parse::<u16>().is_ok());
        if !pool && !LATCHES.contains(&l.as_str()) {
            return Err(format!(
                "latch '{l}': one of LOCK_open, dict_sys, fil_sys, buf_pool[N]"
            ));
        }
        Highlight::Latch(l)
    } else if let Some(t) = raw.mdl_table {
        Highlight::MdlTable(t)
    } else {
        Highlight::Session(raw.session.unwrap_or_default())
    })
}

fn question(raw: RawQuestion, step: &Step) -> Result<Question, String> {
    let observe = Observe::from_raw(&raw.observe)?;
    let at = match (&raw.at, step.pause_at) {
        (Some(a), _) => duration("at", a)?,
        (None, Some(p)) => p,
        (None, None) => {
            return Err("give the question an at = \"...\" or the step a pause_at".into())
        }
    };
    let kind = if raw.choices.is_empty() {
        number(&raw, &observe)?
    } else {
        choice(&raw, step, &observe)?
    };
    Ok(Question {
        prompt: raw.prompt,
        kind,
        observe,
        at,
        explain: raw.explain,
        line: 0,
    })
}

fn number(raw: &RawQuestion, observe: &Observe) -> Result<QuestionKind, String> {
    if !observe.is_number() {
        return Err(format!(
            "observe '{}' gives a choice: list choices = [...]",
            observe.name()
        ));
    }
    let as_f64 = |v: &toml::Value| v.as_float().or(v.as_integer().map(|i| i as f64));
    let answer = raw
        .answer
        .as_ref()
        .and_then(as_f64)
        .ok_or("a number question needs answer = a number")?;
    let tolerance = match &raw.tolerance {
        None => return Err("a number question needs tolerance = a number or \"N%\"".into()),
        Some(toml::Value::String(s)) => s
            .strip_suffix('%')
            .and_then(|p| p.trim().parse::<f64>().ok())
            .map(|p| answer.abs() * p / 100.0)
            .ok_or_else(|| format!("tolerance '{s}': a number or \"N%\""))?,
        Some(v) => as_f64(v).ok_or("tolerance: a number or \"N%\"")?,
    };
    if !(tolerance >= 0.0 && tolerance.is_finite()) {
        return Err(format!("tolerance {tolerance}: not negative"));
    }
    Ok(QuestionKind::Number {
        answer,
        tolerance,
        unit: raw.unit.clone(),
    })
}

fn choice(raw: &RawQuestion, step: &Step, observe: &Observe) -> Result<QuestionKind, String> {
    if observe.is_number() {
        return Err(format!(
            "observe '{}' gives a number: drop choices, give answer and tolerance",
            observe.name()
        ));
    }
    let index = |a: &str| {
        raw.choices
            .iter()
            .position(|c| c == a)
            .ok_or_else(|| format!("answer '{a}' is not one of the choices {:?}", raw.choices))
    };
    let answer = match (&raw.answer, step.variants.is_empty()) {
        (Some(toml::Value::String(a)), true) => Some(index(a)?),
        (Some(_), true) => return Err("answer: the text of one of the choices".into()),
        (None, true) => return Err("a choice question needs answer = one of the choices".into()),
        (Some(_), false) => {
            return Err("a quiz's answers are in its variants: drop answer here".into())
        }
        (None, false) => {
            for v in &step.variants {
                index(&v.answer).map_err(|m| format!("variant at line {}: {m}", v.line))?;
            }
            None
        }
    };
    Ok(QuestionKind::Choice {
        choices: raw.choices.clone(),
        answer,
    })
}
