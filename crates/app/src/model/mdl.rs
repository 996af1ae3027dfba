//! The metadata-locks panel: per lock name, who holds it, who queues for it, and who
//! waits for whom.
//!
//! ```text
//!   test.t1  TABLE                                      2 granted · 17 waiting
//!   ┌──▶ GRANTED  SHARED_READ        TRANSACTION         held 42.0 s
//!   │          session 17
//!   │ ┌▶ GRANTED  SHARED_UPGRADABLE  STATEMENT           held 3.1 s
//!   │ │         session 18
//!   └─┼─ PENDING  EXCLUSIVE          TRANSACTION         waiting 3.1 s
//!     │         session 18 · waits for 17
//!     └╌ PENDING  SHARED_READ        TRANSACTION         waiting up to 2.9 s
//!               16 sessions: 3, 4, 5, 6, 7, 8, 9, 10, … · waits for 18
//! ```
//!
//! The engine's lock manager gives each name's granted list and waiting queue
//! (`MdlManager::queues()`: the rows of `performance_schema.metadata_locks` with the
//! time each ticket was granted or each request queued, and each waiter's wait-for
//! edges). This module turns that into a [`MdlView`] small enough for Yew's snapshot:
//!
//! - granted tickets of the workload's sysbench clients are grouped by lock type and
//!   duration ("16 sessions SHARED_WRITE TRANSACTION"), so 64 clients make one row;
//!   a console session (the presenter's) always gets a row of its own, so the idle
//!   transaction that blocks everything stands out;
//! - waiting requests stay in queue order; consecutive sysbench clients that want the
//!   same thing and wait for the same rows share a row;
//! - every waiting row has arrows to the rows it waits for: solid to a granted ticket
//!   (the compatibility matrix), dashed to a request ahead of it in priority (the
//!   priority matrix: the SELECTs queued behind an ALTER's pending EXCLUSIVE).
//!
//! Scoped locks (GLOBAL, SCHEMA, COMMIT, BACKUP LOCK) are shown only when something
//! waits for them or a stronger type than INTENTION_EXCLUSIVE is granted (FLUSH TABLES
//! WITH READ LOCK's SHARED): every write statement takes an IX on GLOBAL for a moment,
//! and listing those would only make the panel flicker.
//!
//!
//! The panel that draws it (the arrows' gutter, the rows) is `ui::mdl_panel`.

use super::format::age;
use ddlscope_engine::{MdlLockStatus, MdlNamespace, MdlQueue, MdlType, Sim, Tick};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Waiting rows shown per lock; the rest are counted in [`LockView::hidden_waiting`].
pub const MAX_WAITING_ROWS: usize = 8;
/// Session ids listed in a grouped row before an ellipsis (all are in its tooltip).
const LISTED_SESSIONS: usize = 8;

/// What the panel shows: the lock names with something granted or waiting.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MdlView {
    /// Tables first, then the scoped names worth showing, each in key order.
    pub locks: Vec<LockView>,
}

/// One lock name (`MDL_lock`): its rows, granted first, then the waiting queue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockView {
    /// `OBJECT_TYPE`: `TABLE`, `GLOBAL`, `SCHEMA`, ...
    pub object_type: Cow<'static, str>,
    /// The name: `test.t1` for a table, the schema for SCHEMA, empty otherwise.
    pub name: String,
    /// Granted tickets.
    pub granted: u32,
    /// Waiting requests.
    pub waiting: u32,
    /// Granted groups (in lock-type order), then waiting rows (in queue order).
    pub rows: Vec<QueueRow>,
    /// Waiting requests past the last row shown.
    pub hidden_waiting: u32,
}

/// A group of granted tickets or a run of waiting requests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueRow {
    /// Granted, or waiting.
    pub granted: bool,
    /// `LOCK_TYPE`: `SHARED_READ`, ...
    pub lock_type: Cow<'static, str>,
    /// `LOCK_DURATION`: `STATEMENT`, `TRANSACTION` or `EXPLICIT`.
    pub duration: Cow<'static, str>,
    /// The owners' processlist ids, ascending. (A waiting run is a stretch of the
    /// queue where workload clients want the same compatible type, so its members
    /// would be granted together; sorted ids read better than arrival order.)
    pub sessions: Vec<u32>,
    /// How long the oldest of them has held the lock or waited.
    pub age: Tick,
    /// Which session that is.
    pub oldest: u32,
    /// The rows of the same lock this one waits for (indices into `rows`), ascending.
    pub waits_for: Vec<u16>,
}

impl QueueRow {
    /// `session 5`, or `16 sessions: 3, 4, 5, 6, 7, 8, 9, 10, …`.
    pub fn sessions_text(&self) -> String {
        match self.sessions.as_slice() {
            [one] => format!("session {one}"),
            all => {
                let mut ids: Vec<String> = all
                    .iter()
                    .take(LISTED_SESSIONS)
                    .map(u32::to_string)
                    .collect();
                if all.len() > LISTED_SESSIONS {
                    ids.push("…".into());
                }
                format!("{} sessions: {}", all.len(), ids.join(", "))
            }
        }
    }

    /// `held 12.3 s`, `waiting up to 4.0 s`.
    pub fn age_text(&self) -> String {
        let verb = if self.granted { "held" } else { "waiting" };
        let up_to = if self.sessions.len() > 1 {
            " up to"
        } else {
            ""
        };
        format!("{verb}{up_to} {}", age(self.age))
    }
}

impl LockView {
    /// The heading: `test.t1`, `GLOBAL`, `SCHEMA test`.
    pub fn title(&self) -> String {
        match &*self.object_type {
            "TABLE" => self.name.clone(),
            t if self.name.is_empty() => t.to_string(),
            t => format!("{t} {}", self.name),
        }
    }

    /// `waits for 17`, `waits for 16 sessions (SHARED_WRITE)`: row `i`'s edges in words.
    pub fn waits_for_text(&self, i: usize) -> String {
        let targets: Vec<String> = self.rows[i]
            .waits_for
            .iter()
            .map(|&j| {
                let t = &self.rows[usize::from(j)];
                let pending = if t.granted { "" } else { ", pending" };
                match t.sessions.as_slice() {
                    [one] => format!("{one} ({}{pending})", t.lock_type),
                    all => format!("{} sessions ({}{pending})", all.len(), t.lock_type),
                }
            })
            .collect();
        format!("waits for {}", targets.join(", "))
    }
}

/// The view of `sim`'s metadata locks now. `console` sessions (the presenter's) are
/// never grouped with the workload's clients.
pub fn mdl_view(sim: &Sim) -> MdlView {
    MdlView::build(&sim.mdl_queues(), sim.now(), &sim.console_connections())
}

/// One waiting request while rows are built.
struct Waiter {
    ctx: u32,
    mdl_type: MdlType,
    duration: &'static str,
    since: Tick,
    /// Granted groups it waits for.
    on_granted: Vec<u16>,
    /// Waiting requests (positions in the queue) it waits for.
    on_waiting: Vec<usize>,
}

impl MdlView {
    /// Builds the view from the lock manager's queues at time `now`.
    pub fn build(queues: &[MdlQueue], now: Tick, console: &[u32]) -> MdlView {
        let mut locks: Vec<(bool, LockView)> = queues
            .iter()
            .filter(|q| worth_showing(q))
            .map(|q| {
                let is_table = q.key.namespace() == MdlNamespace::Table;
                (!is_table, lock_view(q, now, console))
            })
            .collect();
        // Tables first; the sort is stable, so key order stays within each kind.
        locks.sort_by_key(|(scoped, _)| *scoped);
        MdlView {
            locks: locks.into_iter().map(|(_, l)| l).collect(),
        }
    }

    /// Whether nothing is granted or waiting.
    pub fn is_empty(&self) -> bool {
        self.locks.is_empty()
    }

    /// The sessions holding a granted lock that someone waits for (the open
    /// transaction in Sleep that an ALTER queues behind), ascending.
    pub fn blockers(&self) -> Vec<u32> {
        let mut out: Vec<u32> = self
            .locks
            .iter()
            .flat_map(|l| {
                l.rows
                    .iter()
                    .filter(|r| !r.granted)
                    .flat_map(|r| r.waits_for.iter())
                    .map(|&j| &l.rows[usize::from(j)])
                    .filter(|t| t.granted)
                    .flat_map(|t| t.sessions.iter().copied())
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

fn worth_showing(q: &MdlQueue) -> bool {
    q.key.namespace() == MdlNamespace::Table
        || !q.waiting.is_empty()
        || q.granted
            .iter()
            .any(|g| g.mdl_type != MdlType::IntentionExclusive)
}

fn lock_view(q: &MdlQueue, now: Tick, console: &[u32]) -> LockView {
    let is_console = |ctx: u32| console.contains(&ctx);
    let mut rows = granted_rows(q, now, &is_console);
    let n_granted = rows.len();
    let waiters = waiters(q, &rows);
    let (runs, run_of) = waiting_runs(&waiters, &is_console);
    let shown = runs.len().min(MAX_WAITING_ROWS);
    for (first, members) in runs.iter().take(shown) {
        let f = &waiters[*first];
        let mut waits_for: Vec<u16> = f.on_granted.clone();
        waits_for.extend(
            f.on_waiting
                .iter()
                .map(|&pos| run_of[pos])
                .filter(|&run| run < shown && run != run_of[*first])
                .map(|run| (n_granted + run) as u16),
        );
        waits_for.sort_unstable();
        waits_for.dedup();
        let (age, oldest) = members
            .iter()
            .map(|&m| (now.saturating_sub(waiters[m].since), waiters[m].ctx))
            .fold(
                (Tick::ZERO, f.ctx),
                |best, x| if x.0 > best.0 { x } else { best },
            );
        rows.push(QueueRow {
            granted: false,
            lock_type: f.mdl_type.pfs_name().into(),
            duration: f.duration.into(),
            sessions: {
                let mut ids: Vec<u32> = members.iter().map(|&m| waiters[m].ctx).collect();
                ids.sort_unstable();
                ids
            },
            age,
            oldest,
            waits_for,
        });
    }
    let hidden_waiting = runs.iter().skip(shown).map(|(_, m)| m.len() as u32).sum();
    let key = &q.key;
    LockView {
        object_type: key.namespace().object_type().into(),
        name: match (key.object_schema(), key.object_name()) {
            (Some(db), Some(t)) => format!("{db}.{t}"),
            (Some(db), None) => db.to_string(),
            _ => String::new(),
        },
        granted: q.granted.len() as u32,
        waiting: q.waiting.len() as u32,
        rows,
        hidden_waiting,
    }
}

/// Granted: one row per (type, duration) for the workload, one per console ticket.
fn granted_rows(q: &MdlQueue, now: Tick, is_console: &dyn Fn(u32) -> bool) -> Vec<QueueRow> {
    let mut granted: Vec<(MdlType, QueueRow)> = Vec::new();
    for g in &q.granted {
        let age = now.saturating_sub(g.since);
        let duration = g.duration.pfs_name();
        let group = granted.iter_mut().find(|(t, r)| {
            *t == g.mdl_type
                && r.duration == duration
                && !is_console(g.ctx.0)
                && !is_console(r.sessions[0])
        });
        match group {
            Some((_, r)) => {
                r.sessions.push(g.ctx.0);
                if age > r.age {
                    (r.age, r.oldest) = (age, g.ctx.0);
                }
            }
            None => granted.push((
                g.mdl_type,
                QueueRow {
                    granted: true,
                    lock_type: g.mdl_type.pfs_name().into(),
                    duration: duration.into(),
                    sessions: vec![g.ctx.0],
                    age,
                    oldest: g.ctx.0,
                    waits_for: Vec::new(),
                },
            )),
        }
    }
    granted.sort_by(|(t, r), (u, q)| {
        (*t, &r.duration, r.sessions[0]).cmp(&(*u, &q.duration, q.sessions[0]))
    });
    for (_, r) in &mut granted {
        r.sessions.sort_unstable();
    }
    granted.into_iter().map(|(_, r)| r).collect()
}

/// Waiting: resolve each request's blockers to granted rows or queue positions,
/// through maps, so 64 waiters each blocked by 64 holders stay cheap.
fn waiters(q: &MdlQueue, rows: &[QueueRow]) -> Vec<Waiter> {
    let granted_row: BTreeMap<(u32, MdlType), u16> = rows
        .iter()
        .enumerate()
        .flat_map(|(i, r)| {
            let t = MdlType::ALL
                .into_iter()
                .find(|t| t.pfs_name() == r.lock_type)
                .expect("a granted row names a lock type");
            r.sessions.iter().map(move |&s| ((s, t), i as u16))
        })
        .collect();
    let queue_pos: BTreeMap<(u32, MdlType), usize> = q
        .waiting
        .iter()
        .enumerate()
        .map(|(i, w)| ((w.ctx.0, w.mdl_type), i))
        .collect();
    q.waiting
        .iter()
        .map(|w| {
            let mut on_granted = Vec::new();
            let mut on_waiting = Vec::new();
            for b in &w.blockers {
                match b.status {
                    MdlLockStatus::Granted => {
                        on_granted.extend(granted_row.get(&(b.ctx.0, b.mdl_type)).copied());
                    }
                    MdlLockStatus::Pending => {
                        on_waiting.extend(queue_pos.get(&(b.ctx.0, b.mdl_type)).copied());
                    }
                }
            }
            on_granted.sort_unstable();
            on_granted.dedup();
            on_waiting.sort_unstable();
            on_waiting.dedup();
            Waiter {
                ctx: w.ctx.0,
                mdl_type: w.mdl_type,
                duration: w.duration.pfs_name(),
                since: w.since,
                on_granted,
                on_waiting,
            }
        })
        .collect()
}

/// Runs of workload clients wanting the same thing for the same reasons share a row:
/// the runs as (first waiter, members), and each waiter's run.
#[allow(clippy::type_complexity)]
fn waiting_runs(
    waiters: &[Waiter],
    is_console: &dyn Fn(u32) -> bool,
) -> (Vec<(usize, Vec<usize>)>, Vec<usize>) {
    let mut run_of: Vec<usize> = Vec::with_capacity(waiters.len());
    let mut runs: Vec<(usize, Vec<usize>)> = Vec::new(); // (first waiter, members)
    for (i, w) in waiters.iter().enumerate() {
        let joins = runs.last().is_some_and(|(first, _)| {
            let f = &waiters[*first];
            !is_console(w.ctx)
                && !is_console(f.ctx)
                && f.mdl_type == w.mdl_type
                && f.duration == w.duration
                && f.on_granted == w.on_granted
                && f.on_waiting == w.on_waiting
        });
        if joins {
            runs.last_mut().expect("joins a run").1.push(i);
        } else {
            runs.push((i, vec![i]));
        }
        run_of.push(runs.len() - 1);
    }
    (runs, run_of)
}

#[cfg(test)]
pub(crate) mod tests;
