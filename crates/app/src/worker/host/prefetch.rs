//! The lesson's next step, opened ahead in the worker's spare time, so that → shows it
//! at once instead of after its engines warm and replay to its moment (seconds for a
//! step deep into a run: drop-table-57-vs-80's fifth, compressed-partitions' third).
//!
//! ```text
//!   step N opens ──▶ Prefetch::next(N+1): its engines built like any step's, idle
//!   each timer frame: the open step's work first, then the prefetch's (a little and
//!                     what the step left while it plays, a build's slice while it
//!                     is paused)
//!   → (open N+1)  ──▶ the page asks for exactly that step: the engines are taken as
//!                     they are (settled, or part way), under the page's generation
//! ```
//!
//! Only a step the page would open the same way is opened ahead: one variant with one
//! seed (a quiz of several draws at random on the page), and a pool the worker can
//! hold beside the open step's (and beside the copy of it running on to its
//! question, `reveal_ahead.rs`: see [`MAX_POOL_BYTES`]).

use crate::model::lesson::{open, Sessions, StepPick};
use crate::model::runner::Engines;
use ddlscope_engine::lesson::{Lesson, Plan};
use std::cell::RefCell;
use std::rc::Rc;

/// Wall time a frame gives the prefetch while the open step plays, ms, besides what
/// the step left of its own share (`host::WORK_MS`): a frame's work stays within
/// the two together, as a playing step that used its share whole has it.
pub(super) const PLAYING_WORK_MS: f64 = 8.0;
/// Wall time a frame gives the prefetch while the open step is paused, ms.
pub(super) const PAUSED_WORK_MS: f64 = 24.0;
/// Pools larger than this, all engines of the step together, are not opened twice
/// (the worker would hold two large pools at once): 48 GB, 3 Mi frames of 16 KB,
/// about 100 MB more in the worker (compressed-partitions' 36 GB pool is in; I1's
/// 128 GB ones are not). The next step and the open step's question copy
/// (`reveal_ahead.rs`) each have this budget: a 36 GB step holds three pools, the
/// open one, its copy and the next step's (73 MB each at 31 bytes a page; 170 MB
/// each with the events and samples, as `Sim::approx_bytes` counts them).
pub(super) const MAX_POOL_BYTES: u64 = 48 << 30;

/// The plan of step `step` of `lesson` when it can be opened ahead: the page opens
/// it as variant 0, seed 0 (one variant with one seed: a quiz of several draws at
/// random on the page), and its pools, all its engines together, are no more than
/// [`MAX_POOL_BYTES`].
fn plan_ahead(lesson: &Lesson, step: usize) -> Option<Plan<'_>> {
    let s = lesson.steps.get(step)?;
    let drawn = s.variants.len() > 1 || s.variants.first().is_some_and(|v| v.seeds.len() > 1);
    if drawn {
        return None;
    }
    let plan = lesson.plan(step, 0, 0)?;
    plan_pool_bytes(&plan)?;
    Some(plan)
}

/// The pools of a step's `plan` together, bytes, when they fit in [`MAX_POOL_BYTES`].
pub(super) fn plan_pool_bytes(plan: &Plan<'_>) -> Option<u64> {
    let scenario = plan.setup.scenario(plan.seed).ok()?;
    let engines_n = 1 + u64::from(plan.setup.compare.is_some());
    let bytes = scenario.buffer_pool.size.bytes() * engines_n;
    (bytes <= MAX_POOL_BYTES).then_some(bytes)
}

/// A step opened ahead.
#[derive(Debug)]
pub(super) struct Prefetch {
    /// The lesson's id and its text when the reader brought it.
    id: String,
    source: Option<String>,
    /// The step, as the page will ask for it.
    pub(super) place: StepPick,
    /// Its engines, warming or at its moment.
    pub(super) engines: Engines,
    /// Its sessions' names and ids, once connected.
    pub(super) sessions: Rc<RefCell<Sessions>>,
}

impl Prefetch {
    /// The step after `place` of `lesson` (its text `source` when the reader brought
    /// it), opened ahead, if the page will ask for it as it is opened here and its
    /// pool is small enough to hold twice.
    pub(super) fn next(lesson: &Lesson, source: Option<&str>, place: StepPick) -> Option<Prefetch> {
        let step = place.step + 1;
        let plan = plan_ahead(lesson, step)?;
        let sessions: Rc<RefCell<Sessions>> = Rc::default();
        let (engines, _) = open(&plan, 0, sessions.clone()).ok()?;
        Some(Prefetch {
            id: lesson.id.clone(),
            source: source.map(str::to_string),
            place: StepPick {
                step,
                variant: 0,
                seed: 0,
            },
            engines,
            sessions,
        })
    }

    /// Whether this is step `place` of lesson `id` as the page asks for it now.
    pub(super) fn is(&self, id: &str, source: Option<&str>, place: StepPick) -> bool {
        self.id == id && self.source.as_deref() == source && self.place == place
    }

    /// The engines under generation `g` (the page's restart that asked for them).
    pub(super) fn adopt(mut self, g: u32) -> (Engines, Rc<RefCell<Sessions>>) {
        for r in &mut self.engines.panes {
            r.adopt_generation(g);
        }
        (self.engines, self.sessions)
    }
}
