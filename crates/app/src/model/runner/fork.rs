//! A second copy of settled engines at their moment, by cloning the simulation
//! instead of building its pool and replaying to there (a 36 GB pool's build and
//! a replay through a long DROP take seconds; the clone takes what a checkpoint
//! takes). The worker runs such a copy on to the open step's question
//! (`worker/host/reveal_ahead.rs`).
//!
//! The engine is deterministic: the copy, run on with the same inputs, reaches the
//! state the original reaches, whatever the path there.

use super::{Engines, Runner};

impl Runner {
    /// A copy of this runner at its moment, with its recorded inputs and what the
    /// views digested so far, but no checkpoints, and taking none as it runs on
    /// (each a clone of the pool again: 170 MB for a 36 GB one);
    /// [`Runner::take_checkpoints`] moves the original's over when the copy takes
    /// its place. None while it is busy: a warm-up or a run under way is not cloned.
    pub fn fork(&self) -> Option<Runner> {
        if self.busy().is_some() {
            return None;
        }
        Some(Runner {
            sim: self.sim.clone(),
            warm_up: None,
            catch_up: None,
            catch_up_from: self.catch_up_from,
            stepping: None,
            scenario: self.scenario.clone(),
            profile: self.profile.clone(),
            knobs: self.knobs.clone(),
            own: self.own.clone(),
            generation: self.generation,
            playing: self.playing,
            speed: self.speed,
            inputs: self.inputs.clone(),
            applied: self.applied,
            checkpoints: Vec::new(),
            checkpoint_every: self.checkpoint_every,
            checkpointing: false,
            horizon: self.horizon,
            cursor: self.cursor,
            marks: self.marks.clone(),
            scans: self.scans.clone(),
            flush_walks: self.flush_walks.clone(),
            flush_walk_count: self.flush_walk_count.clone(),
            latch_spans: self.latch_spans.clone(),
            ddl: self.ddl.clone(),
            failovers: self.failovers.clone(),
            log: self.log.clone(),
            rejected: self.rejected.clone(),
            log_version: self.log_version,
            seeks: self.seeks,
            branches: self.branches.clone(),
            last_branch: self.last_branch,
            script: self.script.clone(),
            window_wall_ms: self.window_wall_ms,
            window_virtual_ns: self.window_virtual_ns,
            actual_speed: self.actual_speed,
        })
    }

    /// Takes `from`'s checkpoints, those up to this runner's moment, and takes
    /// checkpoints from now on: a copy made by [`Runner::fork`] of `from` and run on
    /// with the same inputs seeks back from them as `from` would have.
    pub fn take_checkpoints(&mut self, from: &mut Runner) {
        let now = self.sim.now();
        self.checkpoints = std::mem::take(&mut from.checkpoints);
        self.checkpoints.retain(|c| c.sim.now() <= now);
        self.checkpoint_every = from.checkpoint_every;
        self.checkpointing = true;
    }
}

impl Engines {
    /// A copy of every engine at its moment ([`Runner::fork`]), with the same pause
    /// and bound; nothing waits for it to settle. None while an engine is busy or
    /// something still waits for them to settle.
    pub fn fork(&self) -> Option<Engines> {
        if !self.settled.is_empty() {
            return None;
        }
        let panes = self
            .panes
            .iter()
            .map(Runner::fork)
            .collect::<Option<Vec<_>>>()?;
        Some(Engines {
            panes,
            pause_at: self.pause_at,
            bound: self.bound,
            settled: Vec::new(),
        })
    }
}
