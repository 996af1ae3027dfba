//! What a step points at and hides, as a style sheet the player renders: the panels
//! keep their own markup, and nothing is patched into their DOM.

use crate::model::lesson::Sessions;
use ddlscope_engine::lesson::{Highlight, Panel, Step};

/// Marks session `id`'s processlist row and console tab.
fn session_rules(id: u32) -> String {
    format!(
        ".pane-panel[data-panel=processlist] tr[data-id=\"{id}\"] {{ outline: 3px solid var(--accent, #e8a33d); outline-offset: -3px; }}\n\
         [data-testid=sql-console] [data-session=\"{id}\"] {{ box-shadow: 0 0 0 3px var(--accent, #e8a33d); }}\n"
    )
}

/// The selector of a panel on the page.
pub fn selector(p: Panel) -> &'static str {
    match p {
        Panel::PoolMap => ".pane-panel[data-panel=map]",
        Panel::LatchLanes => ".pane-panel[data-panel=latches]",
        Panel::FlushList => ".pane-panel[data-panel=flush]",
        Panel::Mdl => ".pane-panel[data-panel=mdl]",
        Panel::Processlist => ".pane-panel[data-panel=processlist]",
        Panel::Charts => {
            ".pane-panel[data-panel=tps], .pane-panel[data-panel=bp], .pane-panel[data-panel=waits]"
        }
        Panel::Console => "[data-testid=sql-console]",
        Panel::LiveLog => "[data-testid=live-log]",
        Panel::Stats => "aside.side > section:not(.sql-box)",
    }
}

/// The selector of a chart as lesson files name it (`lesson::CHARTS`).
fn chart_selector(name: &str) -> Option<&'static str> {
    match name {
        "throughput" => Some(".pane-panel[data-panel=tps]"),
        "buffer-pool" => Some(".pane-panel[data-panel=bp]"),
        "waits" => Some(".pane-panel[data-panel=waits]"),
        _ => None,
    }
}

/// The charts a step leaves out: those it does not name when it names some
/// (`{ chart = ... }`) and does not highlight the charts whole.
fn unlit_charts(step: &Step) -> Vec<&'static str> {
    let named: Vec<&str> = step
        .highlights
        .iter()
        .filter_map(|h| match h {
            Highlight::Chart(c) => chart_selector(c),
            _ => None,
        })
        .collect();
    if named.is_empty() || step.highlights.contains(&Highlight::Panel(Panel::Charts)) {
        return Vec::new();
    }
    selector(Panel::Charts)
        .split(", ")
        .filter(|s| !named.contains(s))
        .collect()
}

/// The selectors of the panels a step highlights, one for each page element kind
/// (the charts' three panels apart, only those it names when it names some).
pub fn lit_selectors(step: &Step) -> Vec<String> {
    let unlit = unlit_charts(step);
    highlighted(step)
        .into_iter()
        .flat_map(|p| selector(p).split(", "))
        .filter(|s| !unlit.contains(s))
        .map(str::to_string)
        .collect()
}

/// The panels a step highlights, each once.
pub fn highlighted(step: &Step) -> Vec<Panel> {
    let mut out: Vec<Panel> = Vec::new();
    for h in &step.highlights {
        if !out.contains(&h.panel()) {
            out.push(h.panel());
        }
    }
    out
}

/// The style sheet for `step`: its panels outlined, a session's processlist row and
/// console tab marked (its id from `sessions`, once connected), its hidden panels
/// gone; in presenter mode, everything else hidden too, so the highlighted panels
/// fit (the presenter layout itself is static, in styles.css, under
/// `.lesson-bar.presenting`).
pub fn sheet(step: &Step, presenter: bool, sessions: &Sessions) -> String {
    let lit = highlighted(step);
    let mut css = String::new();
    for sel in lit_selectors(step) {
        css.push_str(&format!(
            "{sel} {{ outline: 3px solid var(--accent, #e8a33d); outline-offset: 2px; }}\n"
        ));
    }
    for h in &step.highlights {
        match h {
            Highlight::MdlTable(t) => css.push_str(&format!(
                ".mdl-lock[data-key*=\"{}\"] {{ box-shadow: 0 0 0 3px var(--accent, #e8a33d); }}\n",
                t.replace('"', "")
            )),
            Highlight::Session(name) => {
                if let Some((_, id)) = sessions.iter().find(|(n, _)| n == name) {
                    css.push_str(&session_rules(*id));
                }
            }
            _ => {}
        }
    }
    let hidden: Vec<Panel> = if presenter {
        Panel::ALL
            .iter()
            .map(|(p, _)| *p)
            .filter(|p| !lit.contains(p))
            .collect()
    } else {
        step.hide.clone()
    };
    let unlit = if presenter {
        unlit_charts(step)
    } else {
        Vec::new()
    };
    for sel in hidden.into_iter().map(selector).chain(unlit) {
        css.push_str(&format!("{sel} {{ display: none !important; }}\n"));
    }
    css
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quiz_step_hides_the_statement_log_and_presenter_mode_keeps_only_the_lit() {
        let lessons = crate::model::lesson::lessons();
        let quiz = lessons.iter().find(|l| l.id == "which-statement").unwrap();
        let css = sheet(&quiz.steps[1], false, &Sessions::new());
        assert!(css.contains("[data-testid=sql-console] { display: none !important; }"));
        assert!(css.contains("[data-panel=waits] { outline"));
        let presenting = sheet(&quiz.steps[1], true, &Sessions::new());
        assert!(presenting.contains("[data-panel=mdl] { display: none !important; }"));
        assert!(!presenting.contains("[data-panel=waits] { display: none"));
    }

    #[test]
    fn a_step_naming_one_chart_lights_it_alone_and_presenter_mode_leaves_the_others_out() {
        let lessons = crate::model::lesson::lessons();
        let drop = lessons
            .iter()
            .find(|l| l.id == "drop-table-57-vs-80")
            .unwrap();
        let step = drop
            .steps
            .iter()
            .find(|s| s.highlights == [Highlight::Chart("throughput".into())])
            .unwrap();
        assert_eq!(lit_selectors(step), [".pane-panel[data-panel=tps]"]);
        let css = sheet(step, false, &Sessions::new());
        assert!(css.contains("[data-panel=tps] { outline"), "{css}");
        assert!(!css.contains("[data-panel=bp]"), "{css}");
        let presenting = sheet(step, true, &Sessions::new());
        assert!(presenting.contains("[data-panel=bp] { display: none !important; }"));
        assert!(presenting.contains("[data-panel=waits] { display: none !important; }"));
        assert!(!presenting.contains("[data-panel=tps] { display: none"));
        // A step that highlights the charts whole keeps all three.
        let whole = &drop.steps[2];
        assert_eq!(
            lit_selectors(whole).len(),
            4,
            "the console and three charts"
        );
    }

    #[test]
    fn a_highlighted_session_marks_its_processlist_row_and_console_tab() {
        let lessons = crate::model::lesson::lessons();
        let mdl = lessons.iter().find(|l| l.id == "mdl-queue").unwrap();
        let step = mdl
            .steps
            .iter()
            .find(|s| s.highlights.contains(&Highlight::Session("s3".into())))
            .unwrap();
        let before = sheet(step, false, &Sessions::new());
        assert!(!before.contains("tr[data-id="), "no id before it connects");
        let sessions = vec![("s1".to_string(), 17), ("s3".to_string(), 19)];
        let css = sheet(step, false, &sessions);
        assert!(
            css.contains("[data-panel=processlist] tr[data-id=\"19\"] { outline"),
            "{css}"
        );
        assert!(css.contains("[data-session=\"19\"] { box-shadow"), "{css}");
        assert!(
            !css.contains("data-id=\"17\""),
            "only the highlighted session"
        );
    }
}
