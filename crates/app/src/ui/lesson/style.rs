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

/// The selectors of the panels a step highlights, one for each page element kind
/// (the charts' three panels apart).
pub fn lit_selectors(step: &Step) -> Vec<String> {
    highlighted(step)
        .into_iter()
        .flat_map(|p| selector(p).split(", "))
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
    for p in &lit {
        css.push_str(&format!(
            "{} {{ outline: 3px solid var(--accent, #e8a33d); outline-offset: 2px; }}\n",
            selector(*p)
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
    for p in hidden {
        css.push_str(&format!(
            "{} {{ display: none !important; }}\n",
            selector(p)
        ));
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
