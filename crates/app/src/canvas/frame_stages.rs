//! How the page spreads a worker frame's work over its animation frames. The map's
//! patches are put the frame they come; the rest goes in stages, in this order: the
//! flush lists and latch lanes, the charts, the news (handed to Yew in a task of
//! their own after the frame; their style, layout and paint come in the next frame,
//! which counts them as work done). A stage waits for a
//! later frame when the frame has already worked past the stage's room, so that no
//! frame does all of it at once: on a 2-core machine whose other core the engines'
//! worker keeps busy, the page's thread shares a core with the compositor, and a
//! task's wall time is several times its CPU time (a frame of 20 ms of CPU was one
//! of 50–90 ms). A stage that waited goes first in the next frame, whatever its
//! room, but only the one that has waited longest: a stage waits at most [`STAGES`]
//! frames running.

/// The stages after the map's patches, in the order a frame takes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The flush lists and latch lanes (about 4 ms of drawing a pane).
    Lanes = 0,
    /// The charts (2–4 ms a pane).
    Charts = 1,
    /// The news and answers: Yew's render in a task of its own after the frame, then
    /// the page's style, layout and paint in the next frame (8–12 ms together).
    News = 2,
}

/// How many stages there are.
pub const STAGES: usize = 3;

impl Stage {
    /// Every stage, in a frame's order.
    pub const ALL: [Stage; STAGES] = [Stage::Lanes, Stage::Charts, Stage::News];

    /// The work the frame may have done before this stage (ms of wall time since
    /// the frame began) for the stage to go in it too. The news' is small: most of
    /// its cost comes after the callback, where it cannot be timed.
    pub fn room_ms(self) -> f64 {
        match self {
            Stage::Lanes | Stage::Charts => 6.0,
            Stage::News => 2.0,
        }
    }
}

/// How many frames running each stage has waited; one frame's decisions are made
/// with [`Stages::frame`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stages {
    waited: [u8; STAGES],
}

/// One frame's decisions, stage by stage in [`Stage::ALL`]'s order.
#[derive(Debug)]
pub struct FrameStages<'a> {
    stages: &'a mut Stages,
    /// The stage that goes in this frame whatever its room: the one that has
    /// waited longest (the first of them in a frame's order), if any waited.
    overdue: Option<Stage>,
}

impl Stages {
    /// Starts deciding this frame's stages.
    pub fn frame(&mut self) -> FrameStages<'_> {
        let longest = self.waited.iter().copied().max().unwrap_or(0);
        let overdue = (longest > 0)
            .then(|| {
                Stage::ALL
                    .into_iter()
                    .find(|s| self.waited[*s as usize] == longest)
            })
            .flatten();
        FrameStages {
            stages: self,
            overdue,
        }
    }

    /// How many frames running `stage` has waited.
    pub fn waited(&self, stage: Stage) -> u8 {
        self.waited[stage as usize]
    }
}

impl FrameStages<'_> {
    /// Whether `stage`, with work `pending`, goes in this frame after `worked_ms`
    /// of its work: when the frame has room for it, or when it has waited longest.
    /// A stage with nothing to do never waits.
    pub fn runs(&mut self, stage: Stage, pending: bool, worked_ms: f64) -> bool {
        let waited = &mut self.stages.waited[stage as usize];
        let runs = pending && (worked_ms <= stage.room_ms() || self.overdue == Some(stage));
        *waited = if runs || !pending {
            0
        } else {
            waited.saturating_add(1)
        };
        runs
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs one frame whose own work before the stages (the map's patch) is
    /// `before` ms, with the stages' work `held` (and kept for later frames while a
    /// stage waits), stage `i` costing `COST[i]` ms. Which stages went.
    fn frame(s: &mut Stages, before: f64, held: &mut [bool; STAGES]) -> [bool; STAGES] {
        let mut f = s.frame();
        let mut worked = before;
        Stage::ALL.map(|stage| {
            let i = stage as usize;
            let runs = f.runs(stage, held[i], worked);
            if runs {
                worked += COST[i];
                held[i] = false;
            }
            runs
        })
    }

    const COST: [f64; STAGES] = [4.5, 3.0, 3.0];
    const ALL: [bool; STAGES] = [true; STAGES];
    const NONE: [bool; STAGES] = [false; STAGES];

    #[test]
    fn a_light_frame_takes_every_stage_it_has_room_for() {
        let mut s = Stages::default();
        assert_eq!(
            frame(&mut s, 0.0, &mut [true, true, false]),
            [true, true, false]
        );
        assert_eq!(
            frame(&mut s, 0.5, &mut [false, false, true]),
            [false, false, true]
        );
        assert_eq!(s, Stages::default(), "nothing waits");
    }

    #[test]
    fn a_busy_frame_spreads_its_work_over_the_next_frames() {
        let mut s = Stages::default();
        let mut held = ALL;
        // The map's patch (2 ms), then everything at once.
        assert_eq!(frame(&mut s, 2.0, &mut held), [true, false, false]);
        assert_eq!(
            frame(&mut s, 0.0, &mut held),
            [false, true, false],
            "the charts, and no room for the news"
        );
        assert_eq!(frame(&mut s, 0.0, &mut held), [false, false, true]);
        assert_eq!((s, held), (Stages::default(), NONE));
    }

    #[test]
    fn a_stage_that_waited_goes_next_frame_whatever_the_frame_has_done() {
        let mut s = Stages::default();
        let mut held = [false, false, true];
        assert_eq!(frame(&mut s, 20.0, &mut held), NONE);
        assert_eq!(s.waited(Stage::News), 1);
        assert_eq!(frame(&mut s, 20.0, &mut held), [false, false, true]);
        assert_eq!(s.waited(Stage::News), 0);
    }

    #[test]
    fn the_longest_waiting_stage_goes_first_and_none_waits_more_than_three_frames() {
        let mut s = Stages::default();
        let busy = 20.0;
        let mut held = ALL;
        assert_eq!(frame(&mut s, busy, &mut held), NONE);
        held = ALL;
        assert_eq!(frame(&mut s, busy, &mut held), [true, false, false]);
        held = ALL;
        assert_eq!(frame(&mut s, busy, &mut held), [false, true, false]);
        held = ALL;
        assert_eq!(frame(&mut s, busy, &mut held), [false, false, true]);
        held = ALL;
        assert_eq!(
            frame(&mut s, busy, &mut held),
            [true, false, false],
            "and round again"
        );
        for _ in 0..30 {
            held = ALL;
            frame(&mut s, busy, &mut held);
            assert!(
                Stage::ALL.iter().all(|&st| s.waited(st) <= STAGES as u8),
                "{s:?}"
            );
        }
    }

    #[test]
    fn a_stage_with_nothing_to_do_does_not_wait() {
        let mut s = Stages::default();
        assert_eq!(frame(&mut s, 20.0, &mut NONE.clone()), NONE);
        assert_eq!(s, Stages::default());
    }
}
