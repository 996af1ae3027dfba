//! Compare mode with each engine in a worker of its own: two cores give both
//! engines their full speed.
//!
//! ```text
//!   page ──Command──▶ worker A (Host: main engine)  ──Open, Clock, View, Drawn,──▶ worker B
//!        ◀──Frames──  pane 0 its own; pane 1 ◀──────  Inspect, Follow{to, inputs}   (Host: the
//!                     forwarded as B sends it   Frame{now, busy, pane 0, replies}   compare engine)
//! ```
//!
//! Worker A (the one the page talks to) starts worker B when compare mode starts,
//! and stays the page's only voice: B's frames are forwarded as frames of pane 1.
//! B follows A's clock: A sends where its main engine is (or is headed: a seek,
//! a replay) and, when they change, the main engine's inputs (the statements typed,
//! with their ticks); B runs its engine there, applying the same inputs at the same
//! ticks (`Runner::adopt_inputs`: a branch of history undone by a replay), back by
//! a replay when A went back. A runs at most [`FOLLOW_SLACK_MS`] of wall time (at
//! the speed asked) ahead of B's last reported moment (`Engines::bound`), so the
//! two panes show the same moment within a frame or two and a slower engine holds
//! the other back, as on one thread. Without nested workers, after B could not
//! start or stopped (a notice says why) and in a lesson step (its question reads
//! both engines), compare mode keeps both engines in one `Engines`.
//!
//! Nothing here knows the worker API: `worker::partner_worker` starts B when
//! [`Host::partner_wanted`] (a new B for each start), posts [`Host::take_partner_commands`] to it, and hands
//! its frames to [`Host::partner_frame`]. Native tests join two hosts directly.

use super::{Host, View};
use crate::model::remote::protocol::{Command, Frame, PaneFrame, Reply};
use crate::model::runner::{Input, Runner};
use ddlscope_engine::Tick;

/// How far ahead of the compare engine's last reported moment the main engine may
/// run, in wall time at the speed asked, ms: a few of the two workers' frames, so
/// neither waits for the other's next report.
pub const FOLLOW_SLACK_MS: f64 = 50.0;

/// The compare engine's worker, as the main engine's worker knows it.
#[derive(Debug)]
pub(super) struct Partner {
    /// The compare engine's profile.
    pub profile: String,
    /// Commands for it, in order, not yet posted.
    outbox: Vec<Command>,
    /// Its engine's moment and whether it is busy (building, replaying), as last
    /// heard.
    now: Tick,
    busy: bool,
    /// Its pool's instances (the panels' heights), as last heard.
    instances: u16,
    /// The moment and the inputs last sent it.
    sent_to: Option<Tick>,
    sent_inputs: Option<Vec<Input>>,
    /// Asks forwarded to it: its number, the page's.
    asks: Vec<(u32, u32)>,
    next_ask: u32,
}

impl Partner {
    fn new(profile: &str) -> Partner {
        Partner {
            profile: profile.to_string(),
            outbox: Vec::new(),
            now: Tick::ZERO,
            busy: true,
            instances: 0,
            sent_to: None,
            sent_inputs: None,
            asks: Vec::new(),
            next_ask: 1,
        }
    }
}

impl Host {
    /// This worker can start another (nested workers): compare mode runs its engine
    /// there from now on.
    pub fn allow_partner(&mut self) {
        self.partner_ok = true;
    }

    /// Whether compare mode wants the compare engine's worker running, and which
    /// start of it (a new one wants a new worker).
    pub fn partner_wanted(&self) -> Option<u32> {
        self.partner.as_ref().map(|_| self.partner_epoch)
    }

    /// The commands for the compare engine's worker since the last call, in order.
    pub fn take_partner_commands(&mut self) -> Vec<Command> {
        self.partner
            .as_mut()
            .map(|p| std::mem::take(&mut p.outbox))
            .unwrap_or_default()
    }

    /// The compare engine's worker stopped or could not start: the compare engine
    /// runs beside the main one in this worker from now on (caught up to its
    /// moment), and the page hears why in a notice.
    pub fn partner_failed(&mut self, why: String) {
        let Some(p) = self.partner.take() else {
            return;
        };
        self.partner_ok = false;
        let Some(e) = self.engines.as_mut() else {
            return;
        };
        e.bound = None;
        let knobs = e.main().knobs().clone();
        match e.compare(Some(&p.profile), &knobs) {
            Ok(()) => self.replies.push(Reply::Notice(format!(
                "{why}; both engines now run in one worker."
            ))),
            Err(e) => self.replies.push(Reply::CompareFailed(e)),
        }
    }

    /// A frame from the compare engine's worker: its moment and answers are taken
    /// in, and what it shows of its engine is returned as a frame for the page
    /// (pane 1), with its pixel rows; `None` when it has nothing to show, or comes
    /// from an engine compare mode no longer runs.
    pub fn partner_frame(
        &mut self,
        frame: Frame,
        mut pixels: Vec<Vec<u8>>,
    ) -> Option<(Frame, Vec<Vec<u8>>)> {
        let main = self.engines.as_ref()?.main();
        let (generation, main_now) = (main.generation(), main.sim().now());
        let instances = main.sim().pool().n_instances();
        let p = self.partner.as_mut()?;
        for reply in frame.replies {
            match reply {
                Reply::Inspected { ask, text } => {
                    if let Some(i) = p.asks.iter().position(|&(mine, _)| mine == ask) {
                        let (_, page) = p.asks.swap_remove(i);
                        self.replies.push(Reply::Inspected { ask: page, text });
                    }
                }
                Reply::RestartFailed { error, .. } | Reply::CompareFailed(error) => {
                    self.partner = None;
                    self.replies.push(Reply::CompareFailed(error));
                    return None;
                }
                _ => {}
            }
        }
        if frame.generation != generation {
            return None;
        }
        p.now = frame.now;
        p.busy = frame.busy;
        let pane = frame.panes.into_iter().next()?;
        p.instances = pane.instances;
        let shows = pane.snapshot.is_some()
            || pane.map.is_some()
            || pane.latches.is_some()
            || pane.flush.is_some()
            || pane.charts.is_some();
        if !shows {
            return None;
        }
        if pane.map.is_some() {
            self.drawn_fifo.push_back(true);
        }
        let busy = p.busy || self.engines.as_ref().is_some_and(|e| e.busy().is_some());
        let own = PaneFrame {
            instances,
            ..PaneFrame::default()
        };
        let rows = pixels.drain(..).next().unwrap_or_default();
        let out = Frame {
            generation,
            busy,
            handled: self.handled,
            now: main_now,
            panes: vec![own, pane],
            ..Frame::default()
        };
        Some((out, vec![Vec::new(), rows]))
    }

    /// Compare mode with `profile` in the compare engine's worker, or off with
    /// `None`. A compare engine running beside the main one on `profile` is a
    /// lesson step's, whose question reads both engines: it stays, and no worker
    /// runs another. Any other beside the main one is dropped.
    pub(super) fn compare_in_partner(&mut self, profile: Option<String>) {
        let Some(e) = self.engines.as_mut() else {
            return;
        };
        if profile.is_some() && e.panes.get(1).map(Runner::profile) == profile.as_deref() {
            self.partner = None;
            return;
        }
        let knobs = e.main().knobs().clone();
        let _ = e.compare(None, &knobs);
        match profile {
            None => self.partner = None,
            Some(p) if self.partner.as_ref().is_some_and(|q| q.profile == p) => {}
            Some(p) => self.start_partner(&p),
        }
    }

    /// Opens the compare engine in its worker: the main engine's scenario and
    /// settings on `profile`, its clock and the map's view; the moment and the
    /// inputs follow with the next frame.
    pub(super) fn start_partner(&mut self, profile: &str) {
        let Some(e) = self.engines.as_ref() else {
            return;
        };
        let main = e.main();
        let mut p = Partner::new(profile);
        p.outbox.push(Command::Open {
            scenario: main.scenario().to_string(),
            own: main.own().map(|o| Box::new(o.clone())),
            profile: profile.to_string(),
            knobs: main.knobs().clone(),
            generation: main.generation(),
        });
        p.outbox.push(Command::Clock {
            playing: self.clock.0,
            speed: self.clock.1,
        });
        if let Some(v) = self.panes.get(1).and_then(|s| s.view) {
            p.outbox.push(view_of(v));
        }
        self.partner = Some(p);
        self.partner_epoch = self.partner_epoch.wrapping_add(1);
    }

    /// The compare engine opened again after the main engine was (a new scenario,
    /// engine or setting), if compare mode runs in its worker.
    pub(super) fn restart_partner(&mut self) {
        if let Some(profile) = self.partner.as_ref().map(|p| p.profile.clone()) {
            self.start_partner(&profile);
        }
    }

    /// A command the compare engine's worker takes as it is: the clock, pane 1's
    /// view (its pane 0), the page's `Drawn` of its patch.
    pub(super) fn tell_partner(&mut self, c: Command) {
        if let Some(p) = self.partner.as_mut() {
            p.outbox.push(c);
        }
    }

    /// Pane 1's view, forwarded as the compare engine's worker's pane 0. True when
    /// compare mode runs there.
    pub(super) fn partner_view(&mut self, pane: u8, width: u32, dpr: f64, dark: bool) -> bool {
        if pane != 1 || self.partner.is_none() {
            return false;
        }
        self.tell_partner(view_of(View { width, dpr, dark }));
        true
    }

    /// The tooltip of pane 1's map, asked of the compare engine's worker. True when
    /// compare mode runs there.
    pub(super) fn partner_inspect(&mut self, ask: u32, pane: u8, at: (f64, f64, f64)) -> bool {
        let Some(p) = self.partner.as_mut().filter(|_| pane == 1) else {
            return false;
        };
        let mine = p.next_ask;
        p.next_ask = p.next_ask.wrapping_add(1).max(1);
        p.asks.push((mine, ask));
        p.outbox.push(Command::Inspect {
            ask: mine,
            pane: 0,
            x: at.0,
            y: at.1,
            width: at.2,
        });
        true
    }

    /// Before a frame's run: the main engine may run to the compare engine's last
    /// moment plus [`FOLLOW_SLACK_MS`] at the speed asked.
    pub(super) fn bound_by_partner(&mut self) {
        let speed = self.clock.1;
        let bound = self
            .partner
            .as_ref()
            .map(|p| p.now + Tick((speed.max(0.0) * FOLLOW_SLACK_MS * 1e6) as u64));
        if let Some(e) = self.engines.as_mut() {
            e.bound = bound;
        }
    }

    /// After a frame's run: tells the compare engine's worker where the main engine
    /// is headed, and its inputs when they changed.
    pub(super) fn lead_partner(&mut self) {
        let (Some(e), Some(p)) = (self.engines.as_ref(), self.partner.as_mut()) else {
            return;
        };
        let main = e.main();
        let to = main.destination();
        let inputs =
            (p.sent_inputs.as_deref() != Some(main.inputs())).then(|| main.inputs().to_vec());
        if p.sent_to == Some(to) && inputs.is_none() {
            return;
        }
        p.sent_to = Some(to);
        if let Some(i) = &inputs {
            p.sent_inputs = Some(i.clone());
        }
        p.outbox.push(Command::Follow { to, inputs });
    }

    /// Whether the compare engine's worker is busy (building its pool, replaying).
    pub(super) fn partner_busy(&self) -> bool {
        self.partner.as_ref().is_some_and(|p| p.busy)
    }

    /// Pane 1's place in this worker's own frames while compare mode runs in the
    /// compare engine's worker (its instances; the rest comes in its own frames).
    pub(super) fn partner_pane(&self) -> Option<PaneFrame> {
        self.partner.as_ref().map(|p| PaneFrame {
            instances: p.instances,
            ..PaneFrame::default()
        })
    }

    /// In the compare engine's worker: `Follow` taken in (the main engine's
    /// moment, its inputs); a fresh engine goes to the moment as a replay.
    pub(super) fn follow(&mut self, to: Tick, inputs: Option<Vec<Input>>) {
        self.follow = Some(to);
        let Some(e) = self.engines.as_mut() else {
            return;
        };
        if let Some(inputs) = inputs {
            e.main_mut().adopt_inputs(inputs);
        }
        if std::mem::take(&mut self.fresh) {
            e.main_mut().go_to(to);
        }
    }
}

/// A view as the command that describes it to the compare engine's worker (its
/// pane 0).
fn view_of(v: View) -> Command {
    Command::View {
        pane: 0,
        width: v.width,
        dpr: v.dpr,
        dark: v.dark,
    }
}

#[cfg(test)]
mod tests;
