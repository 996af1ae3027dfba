//! The page's end: what it knows of the engines in the worker (the latest frame of
//! each pane) and the asks waiting for their answers.
//!
//! A synchronous read of the engines on the page becomes a read of the latest
//! frame here; a call that needs an answer (a new console session) becomes an ask,
//! numbered, whose callback runs when the frame carrying its [`Reply`] arrives.

use super::protocol::{Command, Frame, MapPatch, Reply, Timings};
use crate::model::panels::{ChartData, FlushView, LatchView};
use crate::model::snapshot::{News, Snapshot};
use crate::model::state::Action;
use std::collections::BTreeMap;

/// One engine as the latest frames showed it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PaneMirror {
    /// Buffer-pool instances.
    pub instances: u16,
    /// The latest figures.
    pub snapshot: Option<Snapshot>,
    /// The latest map patch's figures (its pixels went to the canvas).
    pub map: Option<MapPatch>,
    /// The latest latch lanes.
    pub latches: Option<LatchView>,
    /// The latest flush lists.
    pub flush: Option<FlushView>,
    /// The latest charts' data.
    pub charts: Option<ChartData>,
}

/// What a frame means for the page.
#[derive(Debug)]
pub struct Received<F> {
    /// The main engine's restart number the news is stamped with.
    pub generation: u32,
    /// For the reducer, in order.
    pub news: Vec<News>,
    /// Things the page should say or undo (a notice, a refused restart).
    pub actions: Vec<Action>,
    /// Asks answered: each callback with its answer.
    pub answered: Vec<(F, Reply)>,
    /// Map patches to draw, by pane, with their pixel buffers' index.
    pub patches: Vec<(usize, MapPatch)>,
    /// The panes whose panels came new, by pane.
    pub panels: Vec<(usize, FreshPanels)>,
}

/// Which of a pane's panels a frame brought new data for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreshPanels {
    /// The latch lanes and flush lists.
    pub lanes: bool,
    /// The charts.
    pub charts: bool,
}

impl FreshPanels {
    /// Either's new data: what two frames brought together.
    pub fn merge(&mut self, other: FreshPanels) {
        self.lanes |= other.lanes;
        self.charts |= other.charts;
    }

    /// Whether anything came.
    pub fn any(self) -> bool {
        self.lanes || self.charts
    }
}

/// The page's picture of the worker's engines.
#[derive(Debug)]
pub struct Mirror<F> {
    next_ask: u32,
    pending: BTreeMap<u32, F>,
    /// Per engine, the main one first.
    pub panes: Vec<PaneMirror>,
    /// The main engine's restart number, as last heard.
    pub generation: u32,
    /// Whether an engine is building its pool or replaying to a moment, or may be
    /// after a command the worker has not taken yet (a seek just sent).
    pub busy: bool,
    /// Whether a frame has come yet.
    pub heard: bool,
    /// The worker's frame timings, as last heard (the `?debug=1` overlay).
    pub timings: Option<Timings>,
    /// Commands sent, and the number of the last that may make the engines busy.
    sent: (u32, u32),
}

impl<F> Default for Mirror<F> {
    fn default() -> Self {
        Mirror {
            next_ask: 1,
            pending: BTreeMap::new(),
            panes: Vec::new(),
            generation: 0,
            busy: true,
            heard: false,
            timings: None,
            sent: (0, 0),
        }
    }
}

impl<F> Mirror<F> {
    /// Numbers an ask whose answer goes to `f`.
    pub fn ask(&mut self, f: F) -> u32 {
        let n = self.next_ask;
        self.next_ask = self.next_ask.wrapping_add(1).max(1);
        self.pending.insert(n, f);
        n
    }

    /// Counts a command sent to the worker: one that [`Command::unsettles`] keeps
    /// the engines busy until a frame has counted it.
    pub fn sent(&mut self, c: &Command) {
        self.sent.0 = self.sent.0.wrapping_add(1);
        if c.unsettles() {
            self.sent.1 = self.sent.0;
            self.busy = true;
        }
    }

    /// Asks still waiting for their answer.
    pub fn waiting(&self) -> usize {
        self.pending.len()
    }

    /// Takes in `frame`: the panes' latest state, and what the page should do.
    pub fn receive(&mut self, frame: Frame) -> Received<F> {
        self.heard = true;
        if frame.timings.is_some() {
            self.timings = frame.timings.clone();
        }
        self.generation = frame.generation;
        // Wrapping: a difference over half the range is the worker ahead.
        let behind = self.sent.1.wrapping_sub(frame.handled) as i32 > 0;
        self.busy = frame.busy || behind;
        self.panes.truncate(frame.panes.len());
        if self.panes.len() < frame.panes.len() {
            self.panes
                .resize_with(frame.panes.len(), PaneMirror::default);
        }
        let mut out = Received {
            generation: frame.generation,
            news: Vec::new(),
            actions: Vec::new(),
            answered: Vec::new(),
            patches: Vec::new(),
            panels: Vec::new(),
        };
        if let Some(log) = frame.log {
            out.news.push(News::Log(log));
        }
        for (pane, (p, mine)) in frame.panes.into_iter().zip(&mut self.panes).enumerate() {
            mine.instances = p.instances;
            if let Some(snapshot) = p.snapshot {
                mine.snapshot = Some(snapshot.clone());
                out.news.push(News::Snapshot { pane, snapshot });
            }
            if let Some(patch) = p.map {
                mine.map = Some(patch.clone());
                out.patches.push((pane, patch));
            }
            let lanes = p.latches.is_some() || p.flush.is_some();
            let charts = p.charts.is_some();
            if p.latches.is_some() {
                mine.latches = p.latches;
            }
            if p.flush.is_some() {
                mine.flush = p.flush;
            }
            if p.charts.is_some() {
                mine.charts = p.charts;
            }
            let fresh = FreshPanels { lanes, charts };
            if fresh.any() {
                out.panels.push((pane, fresh));
            }
        }
        for reply in frame.replies {
            match reply.ask().and_then(|a| self.pending.remove(&a)) {
                Some(f) => out.answered.push((f, reply)),
                None => out.actions.extend(action_of(reply)),
            }
        }
        out
    }

    /// The latest snapshot of pane `i`.
    pub fn snapshot(&self, i: usize) -> Option<&Snapshot> {
        self.panes.get(i)?.snapshot.as_ref()
    }
}

/// What the page does with a reply nobody asked for.
fn action_of(reply: Reply) -> Option<Action> {
    match reply {
        Reply::Notice(text) => Some(Action::Notice(text)),
        Reply::CompareFailed(e) => Some(Action::CompareFailed(e)),
        Reply::RestartFailed {
            error,
            scenario,
            profile,
            knobs,
        } => Some(Action::RestartFailed {
            error,
            scenario,
            profile,
            knobs,
        }),
        Reply::LinkFailed(e) => Some(Action::LinkFailed(e)),
        Reply::PausedAtMark => Some(Action::Pause),
        Reply::Refused(e) => Some(Action::Notice(format!(
            "The engine's worker could not read a message from the page: {e}."
        ))),
        Reply::AdviceProgress(p) => Some(Action::AdviceProgress(p)),
        // An answer whose asker went away (the page restarted meanwhile).
        Reply::Connected { .. }
        | Reply::Submitted { .. }
        | Reply::Link { .. }
        | Reply::Poster { .. }
        | Reply::Exported { .. }
        | Reply::Inspected { .. }
        | Reply::LessonOpened { .. }
        | Reply::Revealed { .. }
        | Reply::Advised { .. } => None,
    }
}

#[cfg(test)]
mod tests;
