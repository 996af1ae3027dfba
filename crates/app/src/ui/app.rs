//! The root component: it starts the engines' worker ([`App`]; a page that says why
//! when none can start), then [`Running`] starts the frame loop and wires the
//! panels to them. Its state, actions and reducer are `model::state` (see the diagram
//! there); the hooks that keep the engines in step with that state are `ui::hooks`.

use crate::canvas::pane_canvases::Canvases;
use crate::canvas::pool_map::InspectAsk;
use crate::model::runner::{DEFAULT_SCENARIO, HEAVY_POOL_BYTES};
use crate::model::snapshot::Snapshot;
use crate::model::state::{Action, AppState};
use crate::ui::advisor::Advisor;
use crate::ui::brand::brand;
use crate::ui::choices::{own_choice, profiles, scenarios, suggestions};
use crate::ui::controls::{Controls, ProfileChoice, ScenarioChoice};
use crate::ui::export::{self, ExportMenu};
use crate::ui::help::Help;
use crate::ui::hooks::{
    dispatch, seeker, stepper, use_clock, use_compare, use_frame_loop, use_restart, use_shortcuts,
    EnginesProxy,
};
use crate::ui::lesson::LessonPlayer;
use crate::ui::mount::{use_mount_stage, Stage};
use crate::ui::notice::Notice;
use crate::ui::pane::Pane;
use crate::ui::panels_menu::PanelsMenu;
use crate::ui::scenario_card::ScenarioCard;
use crate::ui::share::{self, ShareButton};
use crate::ui::share_poster::poster_ask;
use crate::ui::sql_box::SqlConsole;
use crate::ui::start::{first_engines, CannotStart};
use crate::ui::stats::Stats;
use crate::worker::proxy::MapPoint;
use std::rc::Rc;
use yew::prelude::*;

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match self.apply(action) {
            Some(next) => Rc::new(next),
            // The same Rc: Yew skips the re-render.
            None => self,
        }
    }
}

/// Whether the URL's query has `item` (`debug=1`).
fn query_has(item: &str) -> bool {
    gloo::utils::window()
        .location()
        .search()
        .is_ok_and(|q| q.trim_start_matches('?').split('&').any(|kv| kv == item))
}

/// Whether the URL asks for the debug overlay (`?debug=1`).
fn debug_requested() -> bool {
    query_has("debug=1")
}

/// Whether the user asked the system for less motion.
fn reduced_motion() -> bool {
    gloo::utils::window()
        .match_media("(prefers-reduced-motion: reduce)")
        .ok()
        .flatten()
        .is_some_and(|q| q.matches())
}

/// The built-in profiles with their summaries, as [`profiles`] lists them.
type Profiles = Rc<Vec<(ProfileChoice, String)>>;

/// How this render lays the page out.
#[derive(Clone, Copy, Debug)]
struct Shown<'a> {
    /// The built-in profiles, for the panes' and figures' headings.
    profiles: &'a Profiles,
    /// Compare mode, with both engines there.
    comparing: bool,
    /// How much of the page is mounted (`ui::mount`).
    stage: Stage,
}

/// The title and summary of profile `name`.
fn title_of(profiles: &Profiles, name: &str) -> (String, String) {
    profiles
        .iter()
        .find(|(c, _)| c.name == name)
        .map(|(c, s)| (c.title.clone(), s.clone()))
        .unwrap_or_default()
}

/// Flips the page between light and dark.
fn toggle_theme(_: MouseEvent) {
    if let Some(root) = gloo::utils::document().document_element() {
        let dark = crate::canvas::theme::dark_theme(
            gloo::utils::window()
                .match_media("(prefers-color-scheme: dark)")
                .ok()
                .flatten()
                .as_ref(),
        );
        let _ = root.set_attribute("data-theme", if dark { "light" } else { "dark" });
    }
}

/// The page: the engines' worker started once, told what the page opened with.
#[function_component(App)]
pub fn app() -> Html {
    // A link opens its moment; with less motion asked for, the default page waits
    // for play.
    let opening = use_memo((), |_| share::opening());
    let first = use_memo((), |_| first_engines(&opening, reduced_motion()));
    match &*first {
        Ok((state, engines)) => html! {
            <Running first={state.clone()} engines={engines.clone()} opening={opening.clone()} />
        },
        Err(why) => html! { <CannotStart why={AttrValue::from(why.clone())} /> },
    }
}

/// The properties of [`Running`].
#[derive(Properties, PartialEq, Debug)]
pub struct RunningProps {
    /// The page's first state.
    pub first: AppState,
    /// The engines, in their worker.
    pub engines: EnginesProxy,
    /// What the page was opened with.
    pub opening: Rc<share::Opening>,
}

/// The page with its engines running.
#[function_component(Running)]
pub fn running(props: &RunningProps) -> Html {
    let state = use_reducer(|| props.first.clone());
    let engines = props.engines.clone();
    let opening = props.opening.clone();
    let params = use_memo((), |_| opening.params.clone());
    let canvases = use_memo((), |_| vec![Canvases::default(), Canvases::default()]);
    let debug = use_memo((), |_| debug_requested().then(NodeRef::default));
    let profiles = use_memo((), |_| profiles());
    // The built-in scenarios, and the one the opened link carried whole, if any.
    let scenarios = use_memo((), |_| {
        let mut list = scenarios();
        let own = opening.state.as_ref().and_then(|l| l.own.as_deref());
        list.extend(own.map(own_choice));
        list
    });
    let chosen = scenarios.iter().find(|s| s.name == state.scenario).cloned();
    let heavy = chosen.as_ref().is_some_and(|s| {
        s.heavy
            || state
                .knobs
                .pool_mib
                .is_some_and(|m| m << 20 >= HEAVY_POOL_BYTES)
    });

    use_frame_loop(&engines, &state, (*canvases).clone(), (*debug).clone());
    use_clock(&engines, &state);
    use_shortcuts(&engines, &state);
    use_restart(&engines, &state, heavy);
    use_compare(&engines, &state);
    let stage = use_mount_stage();
    // The layout as the address bar's timer reads it.
    let layout = use_mut_ref(|| state.layout.clone());
    if *layout.borrow() != state.layout {
        *layout.borrow_mut() = state.layout.clone();
    }
    share::use_link_sync(&engines, layout, params.clone());

    let instances: Vec<u16> = engines.instances();
    let main_snapshot = state.snapshots[0].clone();
    let comparing = state.compare.is_some() && state.snapshots.len() > 1 && instances.len() > 1;
    let shown = Shown {
        profiles: &profiles,
        comparing,
        stage,
    };
    // The shell's first render leaves the panes to the next task (`ui::mount`).
    let panes = if stage >= Stage::Map {
        panes(&state, &engines, &canvases, &instances, shown)
    } else {
        Vec::new()
    };
    let on_help = dispatch(&state, |_: MouseEvent| Action::ToggleHelp);
    let on_dismiss = dispatch(&state, |_: MouseEvent| Action::DismissError);
    let suggested = suggestions(chosen.as_ref(), &main_snapshot);
    // The Share dialog's snippets show the panels the page shows, in its order.
    let share_panels: String = state
        .layout
        .order
        .iter()
        .filter(|p| state.layout.shown(**p))
        .filter_map(|p| crate::model::snippets::embed_panel(p.name()))
        .collect::<Vec<_>>()
        .join(",");
    let make_url = share::url_maker(&engines, params.clone(), state.layout.clone());
    let make_poster = poster_ask(&engines, canvases[0].map.clone());

    html! {
        <div class={classes!("app", comparing.then_some("comparing"), state.console_wide.then_some("console-wide"))}>
            <a class="skip-link" href="#main" data-testid="skip-link">{ "Skip to the simulation" }</a>
            <a class="skip-link" href="#sql-input">{ "Skip to the SQL console" }</a>
            <header class="toolbar" data-testid="toolbar">
                { brand() }
                if stage >= Stage::Toolbar {
                    { controls(&state, &engines, &main_snapshot) }
                }
                if stage >= Stage::Menus {
                    <div class="group toolbar-end">
                        <PanelsMenu
                            layout={state.layout.clone()}
                            on_toggle={dispatch(&state, Action::TogglePanel)}
                            on_move={dispatch(&state, |(p, up)| Action::MovePanel(p, up))}
                        />
                        <ShareButton {make_url} {make_poster} panels={AttrValue::from(share_panels)} {comparing} />
                        <ExportMenu texts={export::texts(&engines)} canvases={canvases[0].clone()} />
                        <button type="button" data-testid="theme-toggle" title="Switch between light and dark" aria-label="Switch between light and dark theme" onclick={Callback::from(toggle_theme)}>{ "◐" }</button>
                        <button type="button" data-testid="help-toggle" data-popup="" title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts" aria-expanded={if state.help { "true" } else { "false" }} onclick={on_help.clone()}>{ "?" }</button>
                    </div>
                }
            </header>
            if let Some(error) = state.error.clone() {
                <div class="error-banner" role="alert" data-testid="settings-error">
                    <span>{ error }</span>
                    <button type="button" onclick={on_dismiss}>{ "Dismiss" }</button>
                </div>
            }
            <Notice text={state.notice.clone()} on_dismiss={dispatch(&state, |_: MouseEvent| Action::DismissNotice)} />
            if state.help {
                <Help on_close={on_help} />
            }
            <main class="grid" id="main" tabindex="-1">
                <div class="main-col">
                    if stage >= Stage::Card {
                        { scenario_card(&state, &scenarios, &profiles, heavy, &main_snapshot, try_it(&state, chosen.as_ref(), &suggested), CardExtras {
                            lessons: html! {
                                <LessonPlayer engines={engines.clone()} on_action={dispatch(&state, |a: Action| a)}
                                    generation={state.generation} busy={main_snapshot.busy.clone()} />
                            },
                            advisor: html! {
                                <Advisor engines={engines.clone()} progress={state.advice_progress.clone()}
                                    on_action={dispatch(&state, |a: Action| a)} profile={AttrValue::from(state.profile.clone())} />
                            },
                        }) }
                    }
                    <div class="panes">{ for panes }</div>
                </div>
                { side_panel(&state, &engines, suggested, shown) }
            </main>
            if let Some(debug) = (*debug).clone() {
                <pre class="debug-overlay" data-testid="debug-overlay" ref={debug} aria-hidden="true"></pre>
            }
        </div>
    }
}

/// The side panel: the console and the live log, then each engine's figures (once
/// their stages are mounted).
fn side_panel(
    state: &UseReducerHandle<AppState>,
    engines: &EnginesProxy,
    suggested: Vec<String>,
    shown: Shown<'_>,
) -> Html {
    let Shown {
        profiles,
        comparing,
        stage,
    } = shown;
    html! {
        <aside class="panel side">
            if stage >= Stage::Console {
                { console(state, engines, suggested) }
                <div class={classes!("narration", state.narration.is_empty().then_some("empty"))} data-testid="live-log" role="log" aria-live="polite" aria-label="What the server is doing">
                    { for state.narration.iter().map(|l| html! { <p>{ l }</p> }) }
                </div>
            }
            if stage >= Stage::Figures {
                { for state.snapshots.iter().enumerate().filter(|(i, _)| *i == 0 || comparing).map(|(i, s)| {
                    let heading = comparing.then(|| title_of(profiles, if i == 0 { &state.profile } else { state.compare.as_deref().unwrap_or_default() }).0);
                    html! { <Stats snapshot={s.clone()} heading={heading.map(AttrValue::from)} /> }
                }) }
            }
        </aside>
    }
}

/// The toolbar's controls, wired to the reducer and the engines.
fn controls(
    state: &UseReducerHandle<AppState>,
    engines: &EnginesProxy,
    snapshot: &Snapshot,
) -> Html {
    let on_step = stepper(engines, state);
    html! {
        <Controls
            playing={state.playing}
            speed={state.speed}
            knobs={state.knobs.clone()}
            now={snapshot.now}
            horizon={snapshot.horizon}
            marks={snapshot.marks.clone()}
            on_toggle={dispatch(state, |()| Action::TogglePlay)}
            {on_step}
            on_seek={seeker(engines)}
            on_speed={dispatch(state, Action::SetSpeed)}
            on_knobs={dispatch(state, Action::SetKnobs)}
        />
    }
}

/// What the scenario card holds beside its own controls.
struct CardExtras {
    /// The lesson player: its button on the first row, its list or step below.
    lessons: Html,
    /// The Advisor: its button on the hints row (the first row is full at 1280 px),
    /// its form below.
    advisor: Html,
}

/// The scenario card, wired to the reducer.
fn scenario_card(
    state: &UseReducerHandle<AppState>,
    scenarios: &Rc<Vec<ScenarioChoice>>,
    profiles: &Profiles,
    heavy: bool,
    snapshot: &Snapshot,
    try_it: String,
    extras: CardExtras,
) -> Html {
    let on_scenario = {
        let d = state.dispatcher();
        let scenarios = scenarios.clone();
        Callback::from(move |name: String| {
            if let Some(s) = scenarios.iter().find(|s| s.name == name) {
                d.dispatch(Action::SetScenario {
                    name,
                    profile: s.profile.clone(),
                });
            }
        })
    };
    html! {
        <ScenarioCard
            scenario={AttrValue::from(state.scenario.clone())}
            scenarios={(**scenarios).clone()}
            building={state.building && heavy}
            busy={snapshot.busy.clone().map(AttrValue::from)}
            profile={AttrValue::from(state.profile.clone())}
            profiles={(**profiles).clone()}
            compare={state.compare.clone()}
            try_it={AttrValue::from(try_it)}
            open={state.layout.about_open}
            script_runs={state.knobs.runs_script()}
            script_toggle={script_toggle(state)}
            playing={state.playing}
            speed={state.speed}
            actual_speed={snapshot.actual_speed}
            {on_scenario}
            on_profile={dispatch(state, Action::SetProfile)}
            on_compare={dispatch(state, Action::SetCompare)}
            on_open={dispatch(state, |()| Action::ToggleAbout)}
            tools={extras.advisor}
        >
            { extras.lessons }
        </ScenarioCard>
    }
}

/// The SQL console, wired to the engines: statements go to the active session.
fn console(
    state: &UseReducerHandle<AppState>,
    engines: &EnginesProxy,
    suggestions: Vec<String>,
) -> Html {
    let on_run = {
        let engines = engines.clone();
        let active = state.active;
        Callback::from(move |sql: String| -> Result<u32, String> { engines.submit(active, &sql) })
    };
    let on_connect = {
        let engines = engines.clone();
        let d = state.dispatcher();
        Callback::from(move |()| {
            let d = d.clone();
            engines.connect(move |id| d.dispatch(Action::SelectSession(id)));
        })
    };
    html! {
        <SqlConsole
            log={state.log.clone()}
            sessions={state.snapshots[0].console.clone()}
            active={state.active}
            placeholder={AttrValue::from(placeholder(&suggestions, &state.snapshots[0]))}
            {suggestions}
            names={state.session_names.clone()}
            wide={state.console_wide}
            {on_run}
            {on_connect}
            on_select={dispatch(state, Action::SelectSession)}
            on_name={dispatch(state, |(id, name)| Action::NameSession { id, name })}
            on_wide={dispatch(state, |()| Action::ToggleConsoleWide)}
        />
    }
}

/// The console input's placeholder: the first statement offered, and the tables of
/// the running scenario.
fn placeholder(suggestions: &[String], snapshot: &Snapshot) -> String {
    let tables: Vec<&str> = snapshot
        .tables
        .iter()
        .filter(|t| !t.dropped)
        .map(|t| t.name.as_str())
        .collect();
    let first = suggestions
        .first()
        .map_or("SHOW PROCESSLIST", String::as_str);
    if tables.is_empty() {
        first.to_string()
    } else {
        format!("{first}\n-- tables here: {}", tables.join(", "))
    }
}

/// The scenario card's one line on what to try: the scenario's first scripted
/// statement, or a DROP TABLE of one of its tables.
fn try_it(state: &AppState, chosen: Option<&ScenarioChoice>, suggested: &[String]) -> String {
    let then = "then compare engines.";
    match (chosen.and_then(|s| s.script.first()), suggested.first()) {
        _ if state.scenario == DEFAULT_SCENARIO => format!(
            "Try it: {} in the console, at 0.05×; {then}",
            suggested.first().map_or("DROP TABLE t1", String::as_str)
        ),
        (Some((at, sql)), _) => {
            format!("Try it: {sql} in the console (the script runs it at {at} s); {then}")
        }
        (None, Some(sql)) => format!("Try it: {sql} in the console; {then}"),
        (None, None) => format!("Try it: a statement in the console; {then}"),
    }
}

/// The checkbox that runs the scenario's own timed statements (a link's and an
/// embed's default) or leaves the console to the user (the sandbox).
fn script_toggle(state: &UseReducerHandle<AppState>) -> Html {
    let knobs = state.knobs.clone();
    let on_change = dispatch(state, move |_: Event| {
        let mut k = knobs.clone();
        k.script = (!k.runs_script()).then_some(true);
        Action::SetKnobs(k)
    });
    html! {
        <label class="script-toggle" title="Run the statements the scenario's file schedules, at their times (restarts, keeping what you typed)">
            <input type="checkbox" data-testid="script-toggle" checked={state.knobs.runs_script()} onchange={on_change} />
            { " Run the scenario's script" }
        </label>
    }
}

/// One pane per engine shown (two in compare mode), each with its pool map's tooltip
/// and the panels mounted at `stage`.
fn panes(
    state: &AppState,
    engines: &EnginesProxy,
    canvases: &[Canvases],
    instances: &[u16],
    shown: Shown<'_>,
) -> Vec<Html> {
    let Shown {
        profiles,
        comparing,
        stage,
    } = shown;
    (0..if comparing { 2 } else { 1 })
        .map(|i| {
            let name = if i == 0 {
                state.profile.clone()
            } else {
                state.compare.clone().unwrap_or_default()
            };
            let title = comparing.then(|| AttrValue::from(title_of(profiles, &name).0));
            let inspect = {
                let engines = engines.clone();
                Some(Callback::from(move |ask: InspectAsk| {
                    let at = MapPoint {
                        pane: i,
                        x: ask.x,
                        y: ask.y,
                        width: ask.width,
                    };
                    let done = ask.done;
                    engines.inspect(at, move |text| done.emit(text));
                }))
            };
            html! {
                <Pane
                    index={i}
                    canvases={canvases[i].clone()}
                    instances={instances.get(i).copied().unwrap_or(1)}
                    snapshot={state.snapshots.get(i).cloned().unwrap_or_default()}
                    layout={state.layout.clone()}
                    names={state.session_names.clone()}
                    {title}
                    {inspect}
                    on_seek={seeker(engines)}
                    {stage}
                />
            }
        })
        .collect()
}
