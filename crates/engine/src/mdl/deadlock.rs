//! Deadlock detection: a search of the wait-for graph from a context that has just
//! started waiting, and the choice of a victim by deadlock weight
//! (`MDL_context::find_deadlock()`, `Deadlock_detection_visitor`).
//!
//! An edge goes from a waiting context to each context owning a granted or waiting
//! ticket that blocks it ([`super::lock::MdlLock::blockers`]). The search reads the graph
//! through [`WaitForGraph`], as the server's visitor reads `MDL_wait_for_subgraph`, so it
//! knows nothing of how the manager stores it.
//!
//! Simplification: the deadlock search remembers contexts it has fully explored, so it
//! stays linear on the wide wait-for graphs a convoy builds; the server re-walks them.
//! The answer differs only when a path is longer than the 32-context search limit.

use super::lock::MdlBlocker;
use super::types::{MdlContextId, MdlKey, MdlNamespace, MdlRequestId, MdlType};
use std::collections::BTreeSet;

/// Deadlock weight of a wait for a DML-type lock (`DEADLOCK_WEIGHT_DML`, 8.0.40).
pub const DEADLOCK_WEIGHT_DML: u32 = 25;

/// Deadlock weight of a wait for SU or stronger, or in GLOBAL (`DEADLOCK_WEIGHT_DDL`).
pub const DEADLOCK_WEIGHT_DDL: u32 = 100;

/// Past this many contexts on one path the search declares a deadlock
/// (`Deadlock_detection_visitor::MAX_SEARCH_DEPTH`).
pub const MAX_SEARCH_DEPTH: u32 = 32;

/// The wait-for graph as the deadlock search sees it (`MDL_wait_for_subgraph`).
pub(super) trait WaitForGraph {
    /// The request `ctx` waits for (`MDL_context::m_waiting_for`), if any.
    fn waiting_request(&self, ctx: MdlContextId) -> Option<MdlRequestId>;
    /// The wait-for edges of `ctx`'s waiting `request` (`MDL_lock::visit_subgraph()`).
    fn blockers(&self, ctx: MdlContextId, request: MdlRequestId) -> Vec<MdlBlocker>;
    /// The deadlock weight of a waiting context (`MDL_context::get_deadlock_weight()`).
    fn deadlock_weight(&self, ctx: MdlContextId) -> u32;
}

/// The deadlock weight of a wait for `mdl_type` on `key`
/// (`MDL_ticket::get_deadlock_weight()`): what is waited for, not what is held.
pub(super) fn ticket_deadlock_weight(key: &MdlKey, mdl_type: MdlType) -> u32 {
    if key.namespace() == MdlNamespace::Global || mdl_type >= MdlType::SharedUpgradable {
        DEADLOCK_WEIGHT_DDL
    } else {
        DEADLOCK_WEIGHT_DML
    }
}

/// One search of the wait-for graph from a context that has just started waiting
/// (`Deadlock_detection_visitor` driven by `MDL_context::visit_subgraph()`).
pub(super) struct DeadlockSearch<'a, G: WaitForGraph> {
    mdl: &'a G,
    start: MdlContextId,
    depth: u32,
    found: bool,
    victim: Option<(MdlContextId, u32)>,
    /// Contexts whose whole subgraph was searched without reaching `start`.
    explored: BTreeSet<MdlContextId>,
}

impl<G: WaitForGraph> DeadlockSearch<'_, G> {
    /// The victim if `start` is on a cycle (or a path longer than the search limit).
    pub(super) fn run(mdl: &G, start: MdlContextId) -> Option<MdlContextId> {
        let mut search = DeadlockSearch {
            mdl,
            start,
            depth: 0,
            found: false,
            victim: None,
            explored: BTreeSet::new(),
        };
        if search.visit_context(start) {
            search.victim.map(|(ctx, _)| ctx)
        } else {
            None
        }
    }

    fn visit_context(&mut self, ctx: MdlContextId) -> bool {
        match self.mdl.waiting_request(ctx) {
            Some(request) => self.visit_request(ctx, request),
            None => false,
        }
    }

    /// Checks every edge of `src` for the start first, then descends into each
    /// (breadth first at each node, as the server does).
    fn visit_request(&mut self, src: MdlContextId, request: MdlRequestId) -> bool {
        if self.explored.contains(&src) {
            return false;
        }
        if self.enter_node(src) {
            return true;
        }
        let blockers = self.mdl.blockers(src, request);
        let mut next: Vec<MdlContextId> = Vec::with_capacity(blockers.len());
        for b in &blockers {
            if !next.contains(&b.ctx) {
                next.push(b.ctx);
            }
        }
        if next.contains(&self.start) {
            self.found = true;
            self.leave_node(src);
            return true;
        }
        for dest in next {
            if self.visit_context(dest) {
                self.leave_node(src);
                return true;
            }
        }
        self.explored.insert(src);
        self.leave_node(src);
        false
    }

    fn enter_node(&mut self, node: MdlContextId) -> bool {
        self.depth += 1;
        self.found = self.depth >= MAX_SEARCH_DEPTH;
        if self.found {
            self.opt_change_victim_to(node);
        }
        self.found
    }

    fn leave_node(&mut self, node: MdlContextId) {
        self.depth -= 1;
        if self.found {
            self.opt_change_victim_to(node);
        }
    }

    /// Nodes are offered from the far end of the cycle back to the start; a later one
    /// replaces the victim if it weighs no more, so ties go to the start.
    fn opt_change_victim_to(&mut self, node: MdlContextId) {
        let weight = self.mdl.deadlock_weight(node);
        if self.victim.is_none_or(|(_, w)| w >= weight) {
            self.victim = Some((node, weight));
        }
    }
}
