//! The toolbar's controls: play/pause, the speed of virtual time, the scenario, the
//! engine profile, and the virtual clock.
//!
//! Speed is virtual seconds per wall second. Slow motion matters here: a 5.7 DROP
//! TABLE scans the four LRU lists in about 130 ms of virtual time, so at 0.05× the
//! cursor takes a visible 2.6 s to cross the pool. When the engine cannot keep up with
//! the chosen speed, the achieved speed is shown beside the clock.

use crate::format;
use ddlscope_engine::Tick;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The speeds offered, virtual seconds per wall second.
pub const SPEEDS: [f64; 6] = [0.05, 0.1, 0.25, 1.0, 4.0, 10.0];

/// An engine profile as the select offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileChoice {
    /// `mysql-5.7`.
    pub name: String,
    /// `MySQL 5.7`.
    pub title: String,
}

/// A built-in scenario as the select offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioChoice {
    /// `drop-table-demo`.
    pub name: String,
    /// `DROP TABLE on a busy server`.
    pub title: String,
    /// What it shows.
    pub description: String,
    /// The profile it names (selected with it).
    pub profile: String,
    /// Its script's statements, `(virtual seconds, SQL)`, offered in the console.
    pub script: Vec<(u64, String)>,
    /// `innodb_buffer_pool_size`, bytes.
    pub pool_bytes: u64,
    /// Whether building it blocks the page noticeably (see [`crate::runner::is_heavy`]).
    pub heavy: bool,
}

/// Properties of [`Controls`].
#[derive(Properties, PartialEq, Debug)]
pub struct ControlsProps {
    /// Whether virtual time runs.
    pub playing: bool,
    /// The chosen speed.
    pub speed: f64,
    /// The scenario running.
    pub scenario: AttrValue,
    /// The scenarios to choose from.
    pub scenarios: Vec<ScenarioChoice>,
    /// Whether a heavy scenario is being built.
    pub building: bool,
    /// The engine profile running.
    pub profile: AttrValue,
    /// The profiles to choose from.
    pub profiles: Vec<ProfileChoice>,
    /// The virtual time.
    pub now: Tick,
    /// The speed actually achieved (0 when unknown).
    pub actual_speed: f64,
    /// Play or pause.
    pub on_toggle: Callback<()>,
    /// A new speed.
    pub on_speed: Callback<f64>,
    /// A new scenario (restarts the simulation on its own profile).
    pub on_scenario: Callback<String>,
    /// A new profile (restarts the simulation).
    pub on_profile: Callback<String>,
}

/// Play/pause, speed, profile and clock, as groups of the toolbar.
#[function_component(Controls)]
pub fn controls(props: &ControlsProps) -> Html {
    let on_toggle = props.on_toggle.reform(|_: MouseEvent| ());
    let on_speed = {
        let cb = props.on_speed.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Ok(x) = value.parse::<f64>() {
                cb.emit(x);
            }
        })
    };
    let on_profile = {
        let cb = props.on_profile.clone();
        Callback::from(move |e: Event| {
            cb.emit(e.target_unchecked_into::<HtmlSelectElement>().value())
        })
    };
    let on_scenario = {
        let cb = props.on_scenario.clone();
        Callback::from(move |e: Event| {
            cb.emit(e.target_unchecked_into::<HtmlSelectElement>().value())
        })
    };
    let chosen = props.scenarios.iter().find(|s| *s.name == *props.scenario);
    let heavy_note = chosen.filter(|s| s.heavy).map(|s| {
        if props.building {
            "building…".to_string()
        } else {
            format!(
                "builds a {} GB pool: may take a few seconds to start",
                s.pool_bytes >> 30
            )
        }
    });
    let label = if props.playing { "Pause" } else { "Play" };
    let icon = if props.playing { "❚❚" } else { "▶" };
    // Behind when the engine runs noticeably slower than asked.
    let behind =
        props.playing && props.actual_speed > 0.0 && props.actual_speed < props.speed * 0.9;
    html! {
        <>
            <div class="group">
                <button
                    data-testid="play"
                    class={classes!(props.playing.then_some("primary"))}
                    aria-pressed={if props.playing { "true" } else { "false" }}
                    title={if props.playing { "Pause virtual time" } else { "Run virtual time" }}
                    style="min-width: 88px"
                    onclick={on_toggle}
                >
                    <span aria-hidden="true" style="font-size: 10px; margin-right: 6px">{ icon }</span>{ label }
                </button>
            </div>
            <div class="group">
                <label for="speed-select">{ "Speed" }</label>
                <select id="speed-select" data-testid="speed-select" onchange={on_speed} title="Virtual seconds per wall-clock second">
                    { for SPEEDS.iter().map(|&x| html! {
                        <option value={x.to_string()} selected={x == props.speed}>{ format::speed(x) }</option>
                    }) }
                </select>
            </div>
            <div class="group">
                <label for="scenario-select">{ "Scenario" }</label>
                <select id="scenario-select" data-testid="scenario-select" onchange={on_scenario} title="Scenario: changing it restarts the simulation on the scenario's own engine profile" style="max-width: 320px">
                    { for props.scenarios.iter().map(|s| html! {
                        <option value={s.name.clone()} selected={*s.name == *props.scenario}>{ &s.title }</option>
                    }) }
                </select>
                if let Some(note) = heavy_note {
                    <span data-testid="scenario-note" style="color: var(--warning); font-size: 12px" role="status">{ note }</span>
                }
            </div>
            <div class="group">
                <label for="profile-select">{ "Engine" }</label>
                <select id="profile-select" data-testid="profile-select" onchange={on_profile} title="Engine profile: changing it restarts the simulation">
                    { for props.profiles.iter().map(|p| html! {
                        <option value={p.name.clone()} selected={*p.name == *props.profile}>{ &p.title }</option>
                    }) }
                </select>
            </div>
            <div class="group" title="Virtual time since the simulated server started">
                <label>{ "Virtual time" }</label>
                <span data-testid="virtual-time" style="font: 600 14px/1 var(--font-mono); font-variant-numeric: tabular-nums; min-width: 88px">
                    { format!("{} s", format::secs(props.now)) }
                </span>
                if behind {
                    <span style="color: var(--warning); font-size: 12px" data-testid="actual-speed">
                        { format!("running at {} (CPU-bound)", format::speed(props.actual_speed)) }
                    </span>
                }
            </div>
        </>
    }
}
