//! The page mounted in stages: `ui::boot`'s few nodes in the module's first task, a
//! shell (the toolbar's title and the empty grid: the app's state and the engines'
//! worker set up), the pool map's pane in the next task, then (a frame after the first map is
//! on its canvas) the toolbar's controls, its menus, the scenario card, the console,
//! the figures, the other panels (two stages) and the charts one by one, each stage
//! in its own task a frame after the last (and each new canvas first drawn in the
//! frame after its stage).
//!
//! The whole page in one render is a task of 100–150 ms on a 2-core machine (Yew
//! makes a few thousand DOM nodes, the module's functions are compiled as they are
//! first called, and the first style and layout is of all of them), and the map
//! could not be asked for until it ended. In stages, the map's canvas is laid out
//! and its first view asked for after a render of a few nodes, and each stage is a
//! short task on a quiet machine. The grid's tracks do not depend on what is in
//! them, so the map's width is the same at every stage (no second view).
//!
//! The first render is the module's first run of most of Yew's code, which the
//! browser compiles as it is first called: the module's start, the app's state and
//! the map's pane in one task were 50–100 ms (about 44 ms of it compiling); in three
//! tasks, none passed 50 ms in fourteen loads.

use crate::model::panel_layout::PanelId;
use crate::worker::perf_marks;
use gloo::timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// How much of the page is mounted, in the order the stages come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The toolbar's title and the grid, empty.
    Shell,
    /// The pool map's pane too.
    Map,
    /// The toolbar's controls.
    Toolbar,
    /// The toolbar's menus and buttons (panels, share, export, theme, help): a stage
    /// of their own, their components' code being the first run of much of it.
    Menus,
    /// The scenario card.
    Card,
    /// The SQL console and the live log.
    Console,
    /// The figures under the console.
    Figures,
    /// The latch lanes and the flush lists.
    Panels,
    /// The metadata locks and the process list (a few hundred nodes between them).
    Sessions,
    /// The transactions chart too (each chart a stage: a chart's first render and
    /// first drawing are each a task of tens of ms on a 2-core machine).
    Tps,
    /// The buffer-pool chart too.
    Bp,
    /// Every panel.
    Full,
}

impl Stage {
    /// Whether a pane's panel `id` is mounted at this stage.
    pub fn shows(self, id: PanelId) -> bool {
        match id {
            PanelId::Map => self >= Stage::Map,
            PanelId::Tps => self >= Stage::Tps,
            PanelId::Bp => self >= Stage::Bp,
            PanelId::Waits => self >= Stage::Full,
            PanelId::Mdl | PanelId::Processlist => self >= Stage::Sessions,
            PanelId::Latches | PanelId::Flush => self >= Stage::Panels,
        }
    }

    /// The User Timing mark set once this stage is rendered (see `worker::perf_marks`).
    fn mark(self) -> &'static str {
        match self {
            Stage::Shell => "ddlscope:stage-shell",
            Stage::Map => "ddlscope:stage-map",
            Stage::Toolbar => "ddlscope:stage-toolbar",
            Stage::Menus => "ddlscope:stage-menus",
            Stage::Card => "ddlscope:stage-card",
            Stage::Console => "ddlscope:stage-console",
            Stage::Figures => "ddlscope:stage-figures",
            Stage::Panels => "ddlscope:stage-panels",
            Stage::Sessions => "ddlscope:stage-sessions",
            Stage::Tps => "ddlscope:stage-tps",
            Stage::Bp => "ddlscope:stage-bp",
            Stage::Full => "ddlscope:stage-full",
        }
    }

    /// The stage after this one.
    fn next(self) -> Option<Stage> {
        match self {
            Stage::Shell => Some(Stage::Map),
            Stage::Map => Some(Stage::Toolbar),
            Stage::Toolbar => Some(Stage::Menus),
            Stage::Menus => Some(Stage::Card),
            Stage::Card => Some(Stage::Console),
            Stage::Console => Some(Stage::Figures),
            Stage::Figures => Some(Stage::Panels),
            Stage::Panels => Some(Stage::Sessions),
            Stage::Sessions => Some(Stage::Tps),
            Stage::Tps => Some(Stage::Bp),
            Stage::Bp => Some(Stage::Full),
            Stage::Full => None,
        }
    }
}

impl Stage {
    /// The last stage that mounts something above the panes (the toolbar's rows, the
    /// scenario card): until it is rendered, what is on screen would move down.
    pub const LAST_ABOVE_PANES: Stage = Stage::Card;
}

/// Marks the body `data-top-mounted` (`topMounted`: the stages above the panes are
/// in, and on a lesson's link its step card) or `data-mounted` (every stage). The stylesheet keeps the app unseen until the
/// first holds as well as its first frame (`data-ready`), so that on a slow phone,
/// where the first frame comes before the toolbar's and the card's stages, the panes
/// do not appear and then move down (a layout shift of 0.24 at 4× CPU slowdown); and
/// on a phone, where the side panel is below the panes, it keeps that panel unseen
/// until the second, since each stage's panels push it down.
fn say_on_body(flag: &str) {
    if let Some(body) = gloo::utils::document().body() {
        let _ = body.dataset().set(flag, "1");
    }
}

/// Marks the body `data-top-mounted`: the parts above the panes are in (the lesson
/// player says it on a lesson's link, [`say_on_body`]).
pub fn say_top_mounted() {
    say_on_body("topMounted");
}

/// Whether the page's address opens a lesson (`#lesson=`, `#lesson-url=`).
fn names_a_lesson() -> bool {
    let hash = gloo::utils::window().location().hash().unwrap_or_default();
    crate::model::lesson::wanted(&hash).is_some()
}

/// How long after the first render the page's later stages wait for the first map,
/// at most (a page whose map is hidden, or a worker slow to start), ms.
const WAIT_FOR_MAP_MS: f64 = 600.0;

/// The stage the page is at: [`Stage::Shell`] for one task, [`Stage::Map`] until the
/// frame after the one that put the first map on its canvas (the page's other work
/// would hold its pixels back), each next one in a task of its own after the next
/// animation frame.
#[hook]
pub fn use_mount_stage() -> Stage {
    let stage = use_state_eq(|| Stage::Shell);
    {
        let setter = stage.setter();
        use_effect_with(*stage, move |s| {
            perf_marks::once(s.mark());
            match *s {
                // A lesson's link mounts its step card in the card too: that says it.
                Stage::LAST_ABOVE_PANES if !names_a_lesson() => say_top_mounted(),
                Stage::Full => say_on_body("mounted"),
                _ => {}
            }
            let waiter = s.next().map(|next| {
                if *s == Stage::Shell {
                    // The map's pane in the very next task: no frame to wait for.
                    return Waiter::soon(move || setter.set(next));
                }
                let since = perf_marks::now_ms();
                let waits = *s == Stage::Map;
                // The first map seen in an earlier frame: the frame after the one
                // that put its pixels (its labels, the news held for it) comes
                // before the next stage's task.
                let map_seen = Cell::new(false);
                Waiter::start(
                    move || {
                        let shown = map_seen.replace(perf_marks::seen(perf_marks::PAGE_FIRST_MAP));
                        !waits || shown || perf_marks::now_ms() - since >= WAIT_FOR_MAP_MS
                    },
                    move || setter.set(next),
                )
            });
            move || drop(waiter)
        });
    }
    *stage
}

/// The closure `requestAnimationFrame` calls.
type FrameClosure = Closure<dyn FnMut(f64)>;

/// A wait for the first animation frame where a condition holds, then a task of its
/// own; dropping it cancels what is pending.
pub struct Waiter {
    closure: Rc<RefCell<Option<FrameClosure>>>,
    frame: Rc<Cell<Option<i32>>>,
    timeout: Rc<RefCell<Option<Timeout>>>,
}

impl Waiter {
    /// A task of its own, as soon as the browser runs one.
    pub fn soon(then: impl FnOnce() + 'static) -> Waiter {
        Waiter {
            closure: Rc::default(),
            frame: Rc::default(),
            timeout: Rc::new(RefCell::new(Some(Timeout::new(0, then)))),
        }
    }

    fn start(ready: impl Fn() -> bool + 'static, then: impl FnOnce() + 'static) -> Waiter {
        let w = Waiter {
            closure: Rc::default(),
            frame: Rc::default(),
            timeout: Rc::default(),
        };
        let (frame, timeout, me) = (
            w.frame.clone(),
            w.timeout.clone(),
            Rc::downgrade(&w.closure),
        );
        let mut then = Some(then);
        let closure = FrameClosure::new(move |_| {
            frame.set(None);
            if !ready() {
                if let Some(c) = me.upgrade() {
                    frame.set(arm(&c));
                }
            } else if let Some(then) = then.take() {
                *timeout.borrow_mut() = Some(Timeout::new(0, then));
            }
        });
        *w.closure.borrow_mut() = Some(closure);
        w.frame.set(arm(&w.closure));
        w
    }
}

impl std::fmt::Debug for Waiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waiter")
            .field("frame", &self.frame.get())
            .field("timeout_pending", &self.timeout.borrow().is_some())
            .finish()
    }
}

impl Drop for Waiter {
    fn drop(&mut self) {
        if let Some(id) = self.frame.take() {
            let _ = gloo::utils::window().cancel_animation_frame(id);
        }
        self.timeout.borrow_mut().take();
        self.closure.borrow_mut().take();
    }
}

/// Asks for an animation frame for `closure`; its id.
fn arm(closure: &RefCell<Option<FrameClosure>>) -> Option<i32> {
    let c = closure.borrow();
    let f = c.as_ref()?;
    gloo::utils::window()
        .request_animation_frame(f.as_ref().unchecked_ref())
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stages_come_in_order_the_map_first_and_every_panel_at_the_end() {
        let mut seen = vec![Stage::Shell];
        while let Some(next) = seen.last().and_then(|s| s.next()) {
            assert!(next > *seen.last().unwrap(), "{next:?} after {seen:?}");
            seen.push(next);
        }
        assert_eq!(seen.last(), Some(&Stage::Full));
        assert!(!Stage::Shell.shows(PanelId::Map), "the shell is empty");
        for s in &seen[1..] {
            assert!(s.shows(PanelId::Map), "the map at {s:?}");
        }
        let all = [
            PanelId::Latches,
            PanelId::Flush,
            PanelId::Tps,
            PanelId::Bp,
            PanelId::Waits,
            PanelId::Mdl,
            PanelId::Processlist,
        ];
        assert!(all.iter().all(|&p| Stage::Full.shows(p)));
        assert!(all.iter().all(|&p| !Stage::Figures.shows(p)));
        assert!(!Stage::Panels.shows(PanelId::Tps) && Stage::Panels.shows(PanelId::Flush));
        assert!(!Stage::Panels.shows(PanelId::Processlist));
        assert!(Stage::Sessions.shows(PanelId::Mdl) && !Stage::Sessions.shows(PanelId::Tps));
        // The charts one a stage.
        assert!(Stage::Tps.shows(PanelId::Tps) && !Stage::Tps.shows(PanelId::Bp));
        assert!(Stage::Bp.shows(PanelId::Bp) && !Stage::Bp.shows(PanelId::Waits));
    }
}
