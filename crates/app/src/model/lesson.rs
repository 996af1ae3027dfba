//! The lesson player's state, browser-free: where in which lesson the page is, the
//! learner's answer, and opening a step on the engines by deterministic replay.
//!
//! ```text
//!   #lesson=mdl-queue&step=3 ─▶ Place ─▶ Lesson::plan(step) ─▶ open(): fresh runners,
//!                                                               sessions connected at 0,
//!   next / back / reset ──────▶ Place                           statements scheduled,
//!                                                               run to the step's moment
//! ```

use super::knobs::Knobs;
use super::runner::{Engines, Runner};
use super::state::Opened;
use ddlscope_engine::catalog::{self, LessonHead};
use ddlscope_engine::lesson::{self, Lesson, Observation, Plan, Question, QuestionKind, Setup};
use ddlscope_engine::{parse_sql, Tick};
use std::cell::{OnceCell, RefCell};
use std::rc::Rc;

/// Where the player is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Place {
    /// Index into [`Lessons`] (the catalog's order).
    pub lesson: usize,
    /// The step, 0-based.
    pub step: usize,
    /// A quiz step's variant and seed, drawn when it opens.
    pub variant: usize,
    /// The seed's index in the variant's list.
    pub seed: usize,
}

/// The learner's answer to the step's question.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// What was picked or typed, and whether it was right.
    pub guess: Option<(String, bool)>,
    /// The answer shown, with what the simulation showed at the question's moment.
    pub revealed: Option<String>,
}

/// The built-in lessons (they are parsed by the engine's tests, so none fails here).
pub fn lessons() -> Vec<Lesson> {
    lesson::builtin()
        .into_iter()
        .filter_map(Result::ok)
        .collect()
}

/// The built-in lesson `id`, parsed alone; an unknown id is said so.
pub fn lesson(id: &str) -> Result<Lesson, String> {
    lesson::builtin_one(id).unwrap_or_else(|| {
        Err(format!(
            "there is no built-in lesson '{id}' (to open your own, use Lessons → \
             Open a lesson file, drop its file on the page, or a link #lesson-url=…)"
        ))
    })
}

/// Lesson `id`: read from `source`, the text of a lesson the reader brought, when
/// there is one (the worker is sent it with each ask), else the built-in one.
pub fn lesson_from(id: &str, source: Option<&str>) -> Result<Lesson, String> {
    match source {
        Some(text) => lesson::parse(id, text),
        None => lesson(id),
    }
}

/// A lesson the reader brought: from a file, a URL or pasted text.
#[derive(Clone, Debug)]
pub struct Own {
    /// The lesson, read and checked as `ddlscope lesson check` reads it.
    pub lesson: Rc<Lesson>,
    /// Its text, which the worker reads again.
    pub source: Rc<str>,
    /// The address it came from, for the page's link (`#lesson-url=`).
    pub url: Option<String>,
}

impl Own {
    /// Reads `text` (named `name` in errors: `my.toml:12: step 1 'one': ...`).
    pub fn read(name: &str, text: &str, url: Option<String>) -> Result<Own, String> {
        Ok(Own {
            lesson: Rc::new(lesson::parse(name, text)?),
            source: Rc::from(text),
            url,
        })
    }
}

/// One line of the lessons menu.
#[derive(Clone, Debug, PartialEq)]
pub struct MenuEntry {
    /// The lesson's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// Length, steps and audience.
    pub about: String,
    /// Whether the reader brought it.
    pub own: bool,
}

/// The lessons as the page's player holds them: the built-in ones (the menu's heads
/// from the build-time catalog, each lesson parsed the first time it is opened, so
/// the page opens, and a lesson's link opens its step, without parsing the others),
/// then those the reader brought, numbered after them.
#[derive(Debug, Default)]
pub struct Lessons {
    heads: Vec<LessonHead>,
    parsed: Vec<OnceCell<Option<Rc<Lesson>>>>,
    own: RefCell<Vec<Own>>,
}

impl Lessons {
    /// Every built-in lesson, none parsed yet.
    pub fn builtin() -> Lessons {
        let heads = catalog::lessons();
        let parsed = heads.iter().map(|_| OnceCell::new()).collect();
        Lessons {
            heads,
            parsed,
            own: RefCell::default(),
        }
    }

    /// What the menu shows of each, in the menu's order.
    pub fn menu(&self) -> Vec<MenuEntry> {
        let builtin = self.heads.iter().map(|h| MenuEntry {
            id: h.id.to_string(),
            title: h.title.to_string(),
            about: format!("{} · {} steps · {}", h.duration, h.steps, h.audience),
            own: false,
        });
        let own = self.own.borrow();
        let own = own.iter().map(|o| {
            let l = &o.lesson;
            MenuEntry {
                id: l.id.clone(),
                title: l.title.clone(),
                about: format!("your lesson · {} · {} steps", l.duration, l.steps.len()),
                own: true,
            }
        });
        builtin.chain(own.collect::<Vec<_>>()).collect()
    }

    /// How many steps lesson `index` has (0 past the end).
    pub fn steps(&self, index: usize) -> usize {
        match self.heads.get(index) {
            Some(h) => h.steps,
            None => self.get(index).map_or(0, |l| l.steps.len()),
        }
    }

    /// The index of lesson `id`: the reader's own of that id before a built-in one.
    pub fn position(&self, id: &str) -> Option<usize> {
        let own = self.own.borrow().iter().position(|o| o.lesson.id == id);
        own.map(|i| self.heads.len() + i)
            .or_else(|| self.heads.iter().position(|h| h.id == id))
    }

    /// Lesson `index`, parsed on first use (`None` past the end; a built-in lesson
    /// always parses: the engine's tests parse them all).
    pub fn get(&self, index: usize) -> Option<Rc<Lesson>> {
        match self.heads.get(index) {
            Some(head) => self.parsed[index]
                .get_or_init(|| lesson(head.id).ok().map(Rc::new))
                .clone(),
            None => self.own_at(index).map(|o| o.lesson),
        }
    }

    /// The reader's lesson at `index`, if it is one.
    pub fn own_at(&self, index: usize) -> Option<Own> {
        let i = index.checked_sub(self.heads.len())?;
        self.own.borrow().get(i).cloned()
    }

    /// Adds the reader's lesson (in place of one of theirs with its id) and gives
    /// its index.
    pub fn add(&self, own: Own) -> usize {
        let mut list = self.own.borrow_mut();
        let i = match list.iter().position(|o| o.lesson.id == own.lesson.id) {
            Some(i) => {
                list[i] = own;
                i
            }
            None => {
                list.push(own);
                list.len() - 1
            }
        };
        self.heads.len() + i
    }
}

/// "3 / 9" for step index 2 of 9.
pub fn step_label(step: usize, steps: usize) -> String {
    format!("{} / {steps}", step + 1)
}

/// `#lesson=ID&step=N` (N from 1).
pub fn fragment(id: &str, step: usize) -> String {
    format!("#lesson={id}&step={}", step + 1)
}

/// What a fragment asks the player to open.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wanted {
    /// `#lesson=ID&step=N`: a lesson by its id.
    Id(String, usize),
    /// `#lesson-url=URL&step=N`: a lesson file fetched from a URL (percent-encoded
    /// when it holds `&` or `#`).
    Url(String, usize),
}

/// What a fragment names: `#lesson-url=` before `#lesson=`; none for other
/// fragments (a shared moment's `#v1...`).
pub fn wanted(fragment: &str) -> Option<Wanted> {
    let (id, _) = parse_fragment(fragment).unwrap_or_default();
    let pairs = || fragment.trim_start_matches('#').split('&');
    let step = pairs()
        .find_map(|kv| kv.strip_prefix("step="))
        .and_then(|v| v.parse::<usize>().ok())
        .map_or(0, |n| n.saturating_sub(1));
    let url = pairs()
        .find_map(|kv| kv.strip_prefix("lesson-url="))
        .filter(|v| !v.is_empty());
    match (url, id.is_empty()) {
        (Some(u), _) => Some(Wanted::Url(percent_decode(u), step)),
        (None, false) => Some(Wanted::Id(id, step)),
        (None, true) => None,
    }
}

/// `#lesson-url=URL&step=N`, the URL percent-encoded where it must be.
pub fn url_fragment(url: &str, step: usize) -> String {
    let url = url
        .replace('%', "%25")
        .replace('&', "%26")
        .replace('#', "%23")
        .replace(' ', "%20");
    format!("#lesson-url={url}&step={}", step + 1)
}

/// `%26` back to `&`; anything not a valid escape stays as it is.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The lesson id and 0-based step a fragment names (`#lesson=mdl-queue&step=3`); a
/// step outside the lesson is clamped by the caller.
pub fn parse_fragment(fragment: &str) -> Option<(String, usize)> {
    let mut id = None;
    let mut step = 0;
    for kv in fragment.trim_start_matches('#').split('&') {
        match kv.split_once('=') {
            Some(("lesson", v)) if !v.is_empty() => id = Some(v.to_string()),
            Some(("step", v)) => step = v.parse::<usize>().ok()?.saturating_sub(1),
            _ => {}
        }
    }
    id.map(|id| (id, step))
}

/// The settings of a set-up as the toolbar's knobs.
pub fn knobs_of(setup: &Setup) -> Knobs {
    let s = &setup.settings;
    Knobs {
        pool_mib: s.pool.map(|b| b.0 >> 20),
        instances: s.instances,
        ahi: s.ahi,
        file_system: s.file_system,
        device: s.device,
        workload: s.workload,
        threads: s.threads,
        ..Knobs::default()
    }
}

/// Builds the engines of `plan`; once their pools are warm (a frame at a time, see
/// [`Engines::work`]) its sessions connect at time zero, its statements are
/// scheduled and the engines run to the step's moment: the same state whatever the
/// path here. The lesson's session names land in `sessions` with their processlist
/// ids once connected. Everything the plan could refuse is checked before anything
/// is built.
pub fn open(
    plan: &Plan,
    generation: u32,
    sessions: Rc<RefCell<Sessions>>,
) -> Result<(Engines, Opened), String> {
    let opened = opened_of(plan, generation)?;
    let scenario = plan.setup.scenario(plan.seed)?;
    let (profile, knobs) = (opened.profile.clone(), opened.knobs.clone());
    let actions = owned_actions(plan)?;
    let mut engines = Engines::new(Runner::for_lesson(
        scenario.clone(),
        &profile,
        knobs.clone(),
        generation,
    )?);
    if let Some(c) = &plan.setup.compare {
        engines
            .panes
            .push(Runner::for_lesson(scenario, c, knobs.clone(), generation)?);
    }
    engines.pause_at = plan.pause_at;
    engines.set_clock(opened.playing, opened.speed);
    let (names, open_at) = (plan.sessions.clone(), plan.open_at);
    engines.when_settled(move |e| {
        let mut ids = vec![(names[0].clone(), e.main().sim().console_session())];
        for name in &names[1..] {
            ids.push((name.clone(), e.connect()));
        }
        for (at, session, sql) in &actions {
            let id = ids
                .iter()
                .find(|(n, _)| n == session)
                .map_or(0, |(_, id)| *id);
            // Checked by owned_actions: it parses, and time zero is not past.
            let _ = e.schedule(*at, id, sql);
        }
        e.go_to(open_at);
        *sessions.borrow_mut() = ids;
    });
    Ok((engines, opened))
}

/// What the page's state becomes when `plan` opens as restart `generation`, with
/// everything the plan could refuse checked: the page knows it before the engines
/// in the worker are built ([`open`] builds them from the same plan).
pub fn opened_of(plan: &Plan, generation: u32) -> Result<Opened, String> {
    plan.setup.scenario(plan.seed)?;
    owned_actions(plan)?;
    Ok(Opened {
        generation,
        scenario: plan.setup.scenario.clone(),
        profile: plan.setup.engine_name()?,
        knobs: knobs_of(plan.setup),
        compare: plan.setup.compare.clone(),
        playing: plan.pause_at.is_some_and(|p| p > plan.open_at),
        speed: plan.speed.unwrap_or(1.0),
    })
}

/// A step of a lesson as it is opened: its number, the quiz variant and the seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepPick {
    /// The step, from 0.
    pub step: usize,
    /// The quiz variant.
    pub variant: usize,
    /// The seed.
    pub seed: usize,
}

/// The plan of step `pick` of lesson `id`, or why there is none (the worker opens a
/// step by these numbers).
pub fn plan_of<'a>(
    lessons: &'a [Lesson],
    id: &str,
    pick: StepPick,
) -> Result<(&'a Lesson, Plan<'a>), String> {
    let StepPick {
        step,
        variant,
        seed,
    } = pick;
    let lesson = lessons
        .iter()
        .find(|l| l.id == id)
        .ok_or_else(|| format!("no lesson '{id}'"))?;
    let plan = lesson
        .plan(step, variant, seed)
        .ok_or_else(|| format!("lesson '{id}' has no step {}", step + 1))?;
    Ok((lesson, plan))
}

/// The plan's statements with their sessions, each checked: a session the chapter
/// names, a statement that parses.
fn owned_actions(plan: &Plan) -> Result<Vec<(Tick, String, String)>, String> {
    plan.actions
        .iter()
        .map(|a| {
            if !plan.sessions.contains(&a.session) {
                return Err(format!("line {}: unknown session '{}'", a.line, a.session));
            }
            parse_sql(&a.sql).map_err(|e| format!("line {}: {e}", a.line))?;
            Ok((a.at, a.session.clone(), a.sql.clone()))
        })
        .collect()
}

/// A lesson's session names with their processlist ids.
pub type Sessions = Vec<(String, u32)>;

/// Runs the engines on to the question's moment (a frame at a time, after whatever
/// they are busy with, such as opening the step) and gives `seen` what it asks
/// about, measured there.
pub fn reveal(
    engines: &mut Engines,
    sessions: Rc<RefCell<Sessions>>,
    q: &Question,
    seen: impl FnOnce(Observation) + 'static,
) {
    let (at, observe) = (q.at, q.observe.clone());
    engines.when_settled(move |e| {
        let to = e.main().sim().now().max(at);
        e.go_to(to);
        e.when_settled(move |e| {
            let compare = e.panes.get(1).map(Runner::sim);
            seen(observe.measure(e.main().sim(), compare, &sessions.borrow()));
        });
    });
}

/// For a number question answered wrongly with a number: whether the answer is
/// "higher" or "lower" than `guess`.
pub fn hint(kind: &QuestionKind, guess: &str) -> Option<&'static str> {
    let QuestionKind::Number {
        answer, tolerance, ..
    } = kind
    else {
        return None;
    };
    let g = guess.trim().parse::<f64>().ok()?;
    if (g - answer).abs() <= *tolerance {
        None
    } else if g > *answer {
        Some("lower")
    } else {
        Some("higher")
    }
}

/// The stated answer in words.
pub fn stated(q: &Question, variant_answer: Option<&str>) -> String {
    match &q.kind {
        QuestionKind::Choice { choices, answer } => variant_answer
            .map(str::to_string)
            .or(answer.map(|i| choices[i].clone()))
            .unwrap_or_default(),
        QuestionKind::Number {
            answer,
            tolerance,
            unit,
        } => format!(
            "{answer} {unit} (± {})",
            (tolerance * 1000.0).round() / 1000.0
        )
        .replace("  ", " "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragments_round_trip() {
        assert_eq!(fragment("mdl-queue", 2), "#lesson=mdl-queue&step=3");
        assert_eq!(
            parse_fragment("#lesson=mdl-queue&step=3"),
            Some(("mdl-queue".into(), 2))
        );
        assert_eq!(parse_fragment("#v1abc"), None);
        assert_eq!(step_label(2, 9), "3 / 9");
    }

    #[test]
    fn a_wrong_number_is_told_which_way_to_go() {
        let kind = QuestionKind::Number {
            answer: 10.0,
            tolerance: 1.0,
            unit: "s".into(),
        };
        assert_eq!(hint(&kind, "20"), Some("lower"));
        assert_eq!(hint(&kind, " 2.5 "), Some("higher"));
        assert_eq!(hint(&kind, "10.5"), None);
        assert_eq!(hint(&kind, "ten"), None);
    }

    #[test]
    fn a_lesson_url_round_trips_through_the_fragment() {
        let url = "https://example.org/l.toml?a=1&b=2#x";
        let f = url_fragment(url, 1);
        assert_eq!(
            f,
            "#lesson-url=https://example.org/l.toml?a=1%26b=2%23x&step=2"
        );
        assert_eq!(wanted(&f), Some(Wanted::Url(url.into(), 1)));
        assert_eq!(
            wanted("#lesson=mdl-queue"),
            Some(Wanted::Id("mdl-queue".into(), 0))
        );
        assert_eq!(wanted("#v1abc"), None);
        assert_eq!(percent_decode("100%"), "100%");
    }

    #[test]
    fn the_readers_own_lesson_joins_the_menu_and_says_what_is_wrong() {
        let text = include_str!("../../../../assets/lessons/mdl-queue.toml")
            .replace("id = \"mdl-queue\"", "id = \"mine\"");
        let lessons = Lessons::builtin();
        let n = lessons.menu().len();
        let i = lessons.add(Own::read("mine.toml", &text, None).unwrap());
        assert_eq!(i, n);
        assert_eq!(lessons.position("mine"), Some(n));
        assert_eq!(lessons.get(i).unwrap().id, "mine");
        assert!(lessons.menu()[n].own);
        assert_eq!(lessons.steps(i), lessons.get(i).unwrap().steps.len());
        // Again: in its own place.
        assert_eq!(lessons.add(Own::read("mine.toml", &text, None).unwrap()), n);
        assert_eq!(lesson_from("mine", Some(&text)).unwrap().id, "mine");
        let broken = text.replacen("at = \"", "at = \"x", 1);
        let e = Own::read("mine.toml", &broken, None).unwrap_err();
        assert!(e.starts_with("mine.toml:"), "{e}");
        assert!(lesson("nope")
            .unwrap_err()
            .contains("no built-in lesson 'nope'"));
    }

    #[test]
    fn a_step_opens_in_the_same_state_every_time() {
        let l = lessons();
        let mdl = l.iter().find(|l| l.id == "mdl-queue").unwrap();
        let plan = mdl.plan(3, 0, 0).unwrap();
        let ids = Rc::new(RefCell::new(Sessions::new()));
        let (mut a, _) = open(&plan, 1, ids.clone()).unwrap();
        let (mut b, opened) = open(&plan, 2, Rc::default()).unwrap();
        assert!(ids.borrow().is_empty(), "connected once the pool is warm");
        a.settle();
        // b a slice at a time, as the page does it.
        let t = std::cell::Cell::new(0.0);
        let clock = || {
            t.set(t.get() + 1.0);
            t.get()
        };
        let mut frames = 0;
        while !b.work(5.0, &clock) {
            frames += 1;
        }
        assert!(frames > 2, "opened in {frames} frames");
        assert_eq!(ids.borrow().len(), plan.sessions.len());
        assert_eq!(a.main().sim().now(), plan.open_at);
        assert_eq!(a.main().sim().trace_hash(), b.main().sim().trace_hash());
        assert!(opened.playing);
        assert_eq!(opened.scenario, "steady-oltp-rw");
    }

    #[test]
    fn the_reveal_shows_what_lesson_check_checks() {
        let l = lessons();
        let mdl = l.iter().find(|l| l.id == "mdl-queue").unwrap();
        let plan = mdl.plan(2, 0, 0).unwrap();
        let q = mdl.steps[2].question.clone().unwrap();
        let ids = Rc::new(RefCell::new(Sessions::new()));
        let (mut e, _) = open(&plan, 1, ids.clone()).unwrap();
        let seen = Rc::new(RefCell::new(None));
        let put = seen.clone();
        reveal(&mut e, ids, &q, move |o| *put.borrow_mut() = Some(o));
        assert!(seen.borrow().is_none(), "seen once the engines get there");
        e.settle();
        assert_eq!(
            seen.borrow().clone(),
            Some(Observation::Text("Waiting for table metadata lock".into()))
        );
        assert!(q.kind.accepts("Waiting for table metadata lock", None));
        assert!(!q.kind.accepts("altering table", None));
    }
}
