//! docs/errors.md, the page's part: every catalogued bad link fragment, embed
//! parameter, postMessage message and server setting gives exactly the text the
//! document says, and the simulation on the page runs on after a refused one.

#[path = "../../engine/tests/catalogue/mod.rs"]
mod catalogue;

use ddlscope_app::model::embed::{foreign, ignored, parse_command, run_refused, EmbedOptions};
use ddlscope_app::model::knobs::Knobs;
use ddlscope_app::model::link::{parse_fragment, unopenable, unreadable};
use ddlscope_app::model::replay;
use ddlscope_app::model::runner::{Engines, Runner, DEFAULT_PROFILE, DEFAULT_SCENARIO};
use ddlscope_engine::Tick;

#[test]
fn link_fragments_are_refused_as_documented() {
    catalogue::check("fragment", |hash| match parse_fragment(hash) {
        Err(e) => unreadable(&e),
        Ok(f) => match f.state.map(|s| replay::open(&s, 0)) {
            Some(Err(e)) => unopenable(&e),
            Some(Ok(_)) => "(opened)".into(),
            None => "(no state: the default scenario)".into(),
        },
    });
}

#[test]
fn embed_parameters_are_refused_as_documented() {
    catalogue::check("embed", |hash| match parse_fragment(hash) {
        Err(e) => unreadable(&e),
        Ok(f) => match EmbedOptions::from_params(&f.params) {
            Err(e) => e.to_string(),
            Ok(_) => "(read)".into(),
        },
    });
}

#[test]
fn messages_are_ignored_as_documented() {
    catalogue::check("message", |json| match parse_command(json) {
        Err(why) => ignored(&why),
        Ok(_) => "(obeyed)".into(),
    });
    let options =
        EmbedOptions::from_params(&[("origins".to_string(), "https://docs.example".to_string())])
            .unwrap();
    catalogue::check("origin", |origin| {
        match foreign(&options, origin, "https://ddlscope.example") {
            Some(why) => ignored(&why),
            None => "(obeyed)".into(),
        }
    });
}

/// The page's engines, as it opens with no link.
fn page() -> Engines {
    Engines::new(Runner::new(DEFAULT_SCENARIO, DEFAULT_PROFILE, 0).unwrap())
}

/// The page goes on: its clock moves and its console takes a good statement.
fn runs_on(engines: &mut Engines) {
    let before = engines.main().sim().now();
    engines.go_to(before + Tick::from_ms(200));
    // What the frames that follow would do, all at once.
    engines.work(f64::INFINITY, &|| 0.0);
    assert!(
        engines.main().sim().now() > before,
        "the clock does not move"
    );
    let console = engines.main().sim().console_session();
    engines
        .submit(console, "SELECT 1")
        .expect("the console takes SELECT 1");
}

#[test]
fn a_run_message_with_bad_sql_is_refused_as_documented_and_the_player_goes_on() {
    let mut engines = page();
    let console = engines.main().sim().console_session();
    catalogue::check("run", |sql| {
        let got = match engines.submit(console, sql) {
            Err(e) => run_refused(&e),
            Ok(_) => "(run)".into(),
        };
        runs_on(&mut engines);
        got
    });
}

#[test]
fn refused_settings_are_as_documented_and_the_simulation_goes_on() {
    let mut engines = page();
    catalogue::check("setting", |json| {
        let knobs: Knobs = serde_json::from_str(json).expect("a setting case is Knobs JSON");
        let got = match Runner::with_knobs(DEFAULT_SCENARIO, None, DEFAULT_PROFILE, &knobs, 1) {
            Err(e) => Knobs::refused(&e),
            Ok(_) => "(runs)".into(),
        };
        runs_on(&mut engines);
        got
    });
}
