//! The scenario card, under the toolbar: which scenario runs on which engine (and the
//! one compared), one line saying what to try, a note while a heavy scenario builds
//! and when this machine's CPU holds the simulation below the chosen speed, and,
//! opened, the scenario's and the profile's descriptions.
//!
//! ```text
//!   Scenario [DROP TABLE on a busy server ▾] Engine [MySQL 5.7 ▾] ☐ compare with  Lessons  About ▸
//!   Try it: run DROP TABLE t1 in the SQL console …      0.85× real time: CPU-bound
//! ```

use crate::model::format;
use crate::ui::controls::{on_select, ProfileChoice, ScenarioChoice};
use crate::ui::hooks::focus_soon;
use yew::prelude::*;

/// Properties of [`ScenarioCard`].
#[derive(Properties, PartialEq, Debug)]
pub struct ScenarioCardProps {
    /// The scenario running.
    pub scenario: AttrValue,
    /// The scenarios to choose from.
    pub scenarios: Vec<ScenarioChoice>,
    /// Whether a heavy scenario is being built.
    pub building: bool,
    /// What the engine is busy with before it can play, with its progress
    /// ([`crate::model::snapshot::Snapshot::busy`]).
    #[prop_or_default]
    pub busy: Option<AttrValue>,
    /// The engine profile running.
    pub profile: AttrValue,
    /// The profiles to choose from, with their summaries.
    pub profiles: Vec<(ProfileChoice, String)>,
    /// The profile compared side by side, if any.
    pub compare: Option<String>,
    /// The one-line suggestion.
    pub try_it: AttrValue,
    /// Whether the descriptions show.
    pub open: bool,
    /// Whether the scenario's own script runs.
    #[prop_or_default]
    pub script_runs: bool,
    /// The checkbox that runs the scenario's script (shown with the descriptions).
    #[prop_or_default]
    pub script_toggle: Html,
    /// Whether virtual time runs.
    pub playing: bool,
    /// The chosen speed.
    pub speed: f64,
    /// The speed achieved (0 when unknown).
    pub actual_speed: f64,
    /// A new scenario (restarts the simulation on its own profile).
    pub on_scenario: Callback<String>,
    /// A new profile (restarts the simulation).
    pub on_profile: Callback<String>,
    /// Compare with a profile, or stop.
    pub on_compare: Callback<Option<String>>,
    /// Opens or closes the descriptions.
    pub on_open: Callback<()>,
    /// What else belongs on the card's first row (the lesson player: its button, and
    /// once opened its list or step on a row of their own).
    #[prop_or_default]
    pub children: Html,
    /// Tools on the hints row (the Advisor's button, and once opened its form on a
    /// row of its own).
    #[prop_or_default]
    pub tools: Html,
}

/// The note on the achieved speed, when the engine runs noticeably slower than
/// asked: information, not an error. Short, so that it fits beside what to try.
pub fn speed_note(playing: bool, speed: f64, actual: f64) -> Option<String> {
    (playing && actual > 0.0 && actual < speed * 0.9)
        .then(|| format!("{} real time: CPU-bound", format::speed(actual)))
}

/// The widest note `speed_note` gives (speeds go to 1000×, so the achieved one is
/// under 900×). The note's box is always this wide, shown or not, so that its coming
/// and going never moves what is below it.
const SPEED_NOTE_WIDEST: &str = "888.88× real time: CPU-bound";

/// The card's status line in its box of fixed size: what the engine is busy with
/// (building its pool, replaying to a moment), else the speed note. The widest speed
/// note, unseen, holds the box; the busy text never widens it (cut short, whole in
/// its title): neither's coming and going moves what is below it. (Under load a
/// phone saw the pool's build note come and go, the panes 26 px up: CLS 0.014.)
fn status_box(busy: Option<String>, note: Option<String>) -> Html {
    let shown = busy.is_some() || note.is_some();
    let title = match (&busy, &note) {
        (Some(b), _) => Some(b.clone()),
        (None, Some(_)) => Some(
            "This machine's CPU is the limit: the engine runs slower than the speed asked"
                .to_string(),
        ),
        (None, None) => None,
    };
    let speed = if busy.is_some() { None } else { note };
    html! {
        <p data-testid="actual-speed" role="status" title={title}
            aria-hidden={if shown { "false" } else { "true" }}
            class={classes!("about-note", "speed-note", (!shown).then_some("on-pace"))}>
            <span class="speed-note-widest" aria-hidden="true">{ SPEED_NOTE_WIDEST }</span>
            <span class="speed-note-text">{ speed.unwrap_or_default() }</span>
            if let Some(busy) = busy {
                <span class="status-busy" data-testid="scenario-note">{ busy }</span>
            }
        </p>
    }
}

/// The card.
#[function_component(ScenarioCard)]
pub fn scenario_card(props: &ScenarioCardProps) -> Html {
    let chosen = props.scenarios.iter().find(|s| *s.name == *props.scenario);
    let (profile_title, summary) = props
        .profiles
        .iter()
        .find(|(c, _)| *c.name == *props.profile)
        .map(|(c, s)| (c.title.clone(), s.clone()))
        .unwrap_or_default();
    let note = speed_note(props.playing, props.speed, props.actual_speed);
    let on_open = props.on_open.reform(|_: MouseEvent| ());
    html! {
        <section class="panel about" aria-label="Scenario" data-testid="scenario-card">
            <div class="about-row">
                { scenario(props) }
                { engine(props) }
                { props.children.clone() }
                <button type="button" class="about-toggle" data-testid="about-toggle" aria-expanded={if props.open { "true" } else { "false" }} onclick={on_open} title="What the scenario and the engine are">
                    { if props.open { "About ▾" } else { "About ▸" } }
                </button>
            </div>
            <div class="about-row about-hints">
                <p class="try-it" data-testid="try-it">{ props.try_it.clone() }</p>
                // On a phone the console is screens below: one tap takes the reader
                // there, its box focused (shown under 900 px only, by the stylesheet).
                <button type="button" class="to-console" data-testid="to-console" onclick={Callback::from(|_| focus_soon("#sql-input"))}>
                    { "To the console ↓" }
                </button>
                { props.tools.clone() }
                // Always laid out, at its widest: what shows in it shifts nothing.
                { status_box(busy_text(props, chosen), note) }
            </div>
            if props.open {
                <div class="about-text">
                    <h2 class="panel-title" id="about-title">
                        <span data-testid="profile-title">{ profile_title }</span>
                        <span data-testid="scenario-title" class="title-plain">{ chosen.map(|s| s.title.clone()).unwrap_or_default() }</span>
                    </h2>
                    <p data-testid="scenario-description">{ chosen.map(|s| s.description.clone()).unwrap_or_default() }</p>
                    <p class="muted" data-testid="profile-summary">{ summary }</p>
                    <p class="muted">{ script_text(chosen, props.script_runs) }</p>
                    { props.script_toggle.clone() }
                </div>
            }
        </section>
    }
}

/// What the engine is busy with, in words: its own progress, or a heavy scenario's
/// pool being built before the engine says more.
fn busy_text(props: &ScenarioCardProps, chosen: Option<&ScenarioChoice>) -> Option<String> {
    match (&props.busy, chosen) {
        (Some(busy), _) => Some(format::progress_first(busy)),
        (None, Some(s)) if props.building && s.heavy => {
            Some(format!("building a {} GB pool…", s.pool_bytes >> 30))
        }
        _ => None,
    }
}

/// The scenario's own script, in words.
fn script_text(chosen: Option<&ScenarioChoice>, runs: bool) -> String {
    let t = chosen
        .map(|s| {
            s.script
                .iter()
                .map(|(at, sql)| format!("at {at} s: {sql}"))
                .collect::<Vec<_>>()
                .join("; ")
        })
        .unwrap_or_default();
    if t.is_empty() {
        "This scenario has no script: the workload just runs.".to_string()
    } else if runs {
        format!("The scenario's own script runs: {t}.")
    } else {
        format!("The scenario's own script (not run here; you are the script): {t}.")
    }
}

/// The scenario select: as wide as its longest title, or the card.
fn scenario(props: &ScenarioCardProps) -> Html {
    let on_scenario = on_select(&props.on_scenario, Some);
    let title = props
        .scenarios
        .iter()
        .find(|s| *s.name == *props.scenario)
        .map(|s| s.title.clone());
    html! {
        <div class="group scenario-group">
            <label for="scenario-select">{ "Scenario" }</label>
            <select id="scenario-select" data-testid="scenario-select" onchange={on_scenario} title={title.clone().unwrap_or_default()}>
                { for props.scenarios.iter().map(|s| html! {
                    <option value={s.name.clone()} selected={*s.name == *props.scenario}>{ &s.title }</option>
                }) }
            </select>
            // On a phone the select is narrower than the long titles: the whole title
            // under it.
            <p class="scenario-full" data-testid="scenario-full">{ title.clone().unwrap_or_default() }</p>
        </div>
    }
}

/// The engine profile and compare mode.
fn engine(props: &ScenarioCardProps) -> Html {
    let on_profile = on_select(&props.on_profile, Some);
    let default_other = if *props.profile == *"mysql-8.0.23" {
        "mysql-5.7"
    } else {
        "mysql-8.0.23"
    };
    let on_compare_toggle = {
        let cb = props.on_compare.clone();
        let on = props.compare.is_some();
        let other = default_other.to_string();
        Callback::from(move |_: Event| cb.emit((!on).then(|| other.clone())))
    };
    let on_compare_profile = on_select(&props.on_compare, |v| Some(Some(v)));
    html! {
        <div class="group">
            <label for="profile-select">{ "Engine" }</label>
            <select id="profile-select" data-testid="profile-select" onchange={on_profile} title="Engine profile: changing it restarts the simulation">
                { for props.profiles.iter().map(|(p, _)| html! {
                    <option value={p.name.clone()} selected={*p.name == *props.profile}>{ &p.title }</option>
                }) }
            </select>
            <label class="check" title="Run a second engine side by side: one clock, the same workload and statements">
                <input type="checkbox" data-testid="compare-toggle" checked={props.compare.is_some()} onchange={on_compare_toggle} />
                { "compare with" }
            </label>
            if let Some(other) = props.compare.clone() {
                <select data-testid="compare-select" aria-label="Engine compared" onchange={on_compare_profile}>
                    { for props.profiles.iter().map(|(p, _)| html! {
                        <option value={p.name.clone()} selected={p.name == other}>{ &p.title }</option>
                    }) }
                </select>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_speed_note_is_information_and_only_when_behind() {
        assert_eq!(
            speed_note(true, 1.0, 0.85).as_deref(),
            Some("0.85× real time: CPU-bound")
        );
        assert_eq!(speed_note(true, 1.0, 0.95), None, "on pace");
        assert_eq!(speed_note(false, 1.0, 0.5), None, "paused");
        assert_eq!(speed_note(true, 1.0, 0.0), None, "not measured yet");
    }

    #[test]
    fn the_widest_note_is_as_wide_as_any() {
        let widest = speed_note(true, 1000.0, 888.88).expect("behind");
        assert_eq!(widest.chars().count(), SPEED_NOTE_WIDEST.chars().count());
        assert_eq!(
            speed_note(true, 1000.0, 899.99).map(|s| s.chars().count()),
            Some(widest.chars().count())
        );
    }
}
