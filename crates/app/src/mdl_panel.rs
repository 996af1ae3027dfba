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
//! Rows have a fixed height, so the arrows' SVG is laid out here, without measuring the
//! DOM: a gutter left of the rows with one lane per arrow.

use ddlscope_engine::mdl::{MdlLockStatus, MdlNamespace, MdlQueue, MdlType};
use ddlscope_engine::{Sim, Tick};
use std::collections::BTreeMap;
use yew::prelude::*;

/// Height of a row, CSS pixels (two lines of text).
pub const ROW_PX: u32 = 40;
/// Space between rows, CSS pixels.
pub const ROW_GAP_PX: u32 = 4;
/// Waiting rows shown per lock; the rest are counted in [`LockView::hidden_waiting`].
pub const MAX_WAITING_ROWS: usize = 8;
/// Arrow lanes in a gutter; further arrows share the outermost lane.
pub const MAX_LANES: usize = 6;
/// Session ids listed in a grouped row before an ellipsis (all are in its tooltip).
const LISTED_SESSIONS: usize = 8;
/// Width of one arrow lane, and the gutter's margin, CSS pixels.
const LANE_PX: u32 = 8;
const GUTTER_MARGIN_PX: u32 = 10;

/// What the panel shows: the lock names with something granted or waiting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MdlView {
    /// Tables first, then the scoped names worth showing, each in key order.
    pub locks: Vec<LockView>,
}

/// One lock name (`MDL_lock`): its rows, granted first, then the waiting queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockView {
    /// `OBJECT_TYPE`: `TABLE`, `GLOBAL`, `SCHEMA`, ...
    pub object_type: &'static str,
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueueRow {
    /// Granted, or waiting.
    pub granted: bool,
    /// `LOCK_TYPE`: `SHARED_READ`, ...
    pub lock_type: &'static str,
    /// `LOCK_DURATION`: `STATEMENT`, `TRANSACTION` or `EXPLICIT`.
    pub duration: &'static str,
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
        match self.object_type {
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

/// A duration for people: `3 ms` (a sysbench client's lock), `12.3 s`, `4 min 05 s`,
/// `2 h 03 min`.
pub fn age(t: Tick) -> String {
    let s = t.as_secs();
    if s < 1 {
        format!("{} ms", t.as_ms())
    } else if s < 60 {
        format!("{}.{} s", s, (t.as_ms() % 1000) / 100)
    } else if s < 3600 {
        format!("{} min {:02} s", s / 60, s % 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600) / 60)
    }
}

/// The view of `sim`'s metadata locks now. `console` sessions (the presenter's) are
/// never grouped with the workload's clients.
pub fn mdl_view(sim: &Sim) -> MdlView {
    MdlView::build(&sim.mdl().queues(), sim.now(), &sim.console_sessions())
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
    // Granted: one row per (type, duration) for the workload, one per console ticket.
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
                    lock_type: g.mdl_type.pfs_name(),
                    duration,
                    sessions: vec![g.ctx.0],
                    age,
                    oldest: g.ctx.0,
                    waits_for: Vec::new(),
                },
            )),
        }
    }
    granted.sort_by_key(|(t, r)| (*t, r.duration, r.sessions[0]));
    for (_, r) in &mut granted {
        r.sessions.sort_unstable();
    }
    let mut rows: Vec<QueueRow> = granted.into_iter().map(|(_, r)| r).collect();
    let n_granted = rows.len();

    // Waiting: resolve each request's blockers to granted rows or queue positions,
    // through maps, so 64 waiters each blocked by 64 holders stay cheap.
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
    let waiters: Vec<Waiter> = q
        .waiting
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
        .collect();
    // Runs of workload clients wanting the same thing for the same reasons share a row.
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
            lock_type: f.mdl_type.pfs_name(),
            duration: f.duration,
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
        object_type: key.namespace().object_type(),
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

/// An arrow from waiting row `from` to row `to`, in lane `lane` of the gutter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrow {
    /// The waiting row.
    pub from: usize,
    /// The row it waits for.
    pub to: usize,
    /// The lane, 0 nearest the rows.
    pub lane: usize,
    /// Whether the target is a granted row (solid) or a waiting one (dashed).
    pub to_granted: bool,
}

/// Every arrow of `lock`, shorter spans in inner lanes so that arrows nest instead of
/// crossing; returns them with the number of lanes used.
pub fn arrows(lock: &LockView) -> (Vec<Arrow>, usize) {
    let mut out: Vec<Arrow> = lock
        .rows
        .iter()
        .enumerate()
        .flat_map(|(from, r)| {
            r.waits_for.iter().map(move |&to| Arrow {
                from,
                to: usize::from(to),
                lane: 0,
                to_granted: false,
            })
        })
        .collect();
    out.sort_by_key(|a| (a.from.abs_diff(a.to), a.from, a.to));
    for (i, a) in out.iter_mut().enumerate() {
        a.lane = i.min(MAX_LANES - 1);
        a.to_granted = lock.rows[a.to].granted;
    }
    let lanes = out.len().min(MAX_LANES);
    (out, lanes)
}

/// Width of the arrows' gutter for `lanes` lanes, CSS pixels.
pub fn gutter_px(lanes: usize) -> u32 {
    if lanes == 0 {
        0
    } else {
        GUTTER_MARGIN_PX + LANE_PX * lanes as u32
    }
}

/// The vertical middle of row `i`, CSS pixels from the top of the rows.
fn row_mid_px(i: usize) -> u32 {
    i as u32 * (ROW_PX + ROW_GAP_PX) + ROW_PX / 2
}

fn arrows_svg(lock: &LockView) -> Html {
    let (arrows, lanes) = arrows(lock);
    if arrows.is_empty() {
        return html! {};
    }
    let w = gutter_px(lanes);
    let n = lock.rows.len() as u32;
    let h = n * ROW_PX + n.saturating_sub(1) * ROW_GAP_PX;
    let end = w - 1;
    html! {
        <svg class="mdl-arrows" width={w.to_string()} height={h.to_string()}
             viewBox={format!("0 0 {w} {h}")} aria-hidden="true">
            { for arrows.iter().map(|a| {
                let x = end - 4 - LANE_PX * (a.lane as u32 + 1);
                let (y0, y1) = (row_mid_px(a.from), row_mid_px(a.to));
                let class = classes!("mdl-edge", (!a.to_granted).then_some("queued"));
                html! {
                    <g {class}>
                        <circle cx={end.saturating_sub(2).to_string()} cy={y0.to_string()} r="2.5" />
                        <path d={format!("M {} {y0} H {x} V {y1} H {}", end - 2, end - 1)} />
                        <polygon points={format!("{},{} {end},{y1} {},{}", end - 6, y1 - 4, end - 6, y1 + 4)} />
                    </g>
                }
            }) }
        </svg>
    }
}

fn queue_row(lock: &LockView, i: usize) -> Html {
    let r = &lock.rows[i];
    let all: Vec<String> = r.sessions.iter().map(u32::to_string).collect();
    let mut line2 = r.sessions_text();
    if !r.waits_for.is_empty() {
        line2.push_str(" · ");
        line2.push_str(&lock.waits_for_text(i));
    }
    let title = format!(
        "{} {} {}: {} (sessions {}); the oldest is session {}",
        if r.granted { "GRANTED" } else { "PENDING" },
        r.lock_type,
        r.duration,
        r.age_text(),
        all.join(", "),
        r.oldest
    );
    let status = if r.granted { "granted" } else { "pending" };
    html! {
        <li class={classes!("mdl-row", status)} data-testid={format!("mdl-{status}")}
            data-sessions={all.join(" ")} {title}>
            <div class="mdl-line">
                <span class="mdl-status">{ if r.granted { "GRANTED" } else { "PENDING" } }</span>
                <span class="mdl-type">{ r.lock_type }</span>
                <span class="mdl-duration">{ r.duration }</span>
                <span class="mdl-age">{ r.age_text() }</span>
            </div>
            <div class="mdl-line mdl-who">
                <span class="mdl-duration-alt">{ r.duration }{ " · " }</span>{ line2 }
            </div>
        </li>
    }
}

fn lock_card(lock: &LockView) -> Html {
    let (_, lanes) = arrows(lock);
    let counts = if lock.waiting > 0 {
        format!("{} granted · {} waiting", lock.granted, lock.waiting)
    } else {
        format!("{} granted", lock.granted)
    };
    html! {
        <div class={classes!("mdl-lock", (lock.waiting > 0).then_some("contended"))}
             data-testid="mdl-lock" data-key={lock.title()}>
            <div class="mdl-lock-head">
                <span class="mdl-key">{ lock.title() }</span>
                if lock.object_type == "TABLE" {
                    <span class="mdl-ns">{ "TABLE" }</span>
                }
                <span class="mdl-counts">{ counts }</span>
            </div>
            <div class="mdl-queue" style={format!("padding-left: {}px", gutter_px(lanes))}>
                { arrows_svg(lock) }
                <ol class="mdl-rows" style={format!("--mdl-row: {ROW_PX}px; --mdl-gap: {ROW_GAP_PX}px")}>
                    { for (0..lock.rows.len()).map(|i| queue_row(lock, i)) }
                </ol>
            </div>
            if lock.hidden_waiting > 0 {
                <p class="mdl-more">{ format!("+ {} more waiting", lock.hidden_waiting) }</p>
            }
        </div>
    }
}

/// Props of [`MdlPanel`].
#[derive(Properties, PartialEq, Debug)]
pub struct MdlPanelProps {
    /// The locks.
    pub view: MdlView,
}

/// The panel.
#[function_component(MdlPanel)]
pub fn mdl_panel(props: &MdlPanelProps) -> Html {
    let view = &props.view;
    html! {
        <section class="panel" aria-labelledby="mdl-title" data-testid="mdl-panel">
            <h2 class="panel-title" id="mdl-title">
                <span>{ "Metadata locks" }</span>
                <span style="text-transform: none; letter-spacing: 0; font-weight: 400">
                    { "granted, then the queue; arrows: waits for" }
                </span>
            </h2>
            if view.is_empty() {
                <p class="mdl-empty" data-testid="mdl-empty">{ "no metadata locks held" }</p>
            } else {
                <div class="mdl-locks">
                    { for view.locks.iter().map(lock_card) }
                </div>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ddlscope_engine::mdl::{MdlContextId, MdlDuration, MdlKey, MdlManager, MdlRequest};

    const YEAR: Tick = Tick::from_secs(31_536_000);

    fn acquire(m: &mut MdlManager, ctx: u32, key: &MdlKey, t: MdlType, at: Tick) {
        let req = MdlRequest::new(key.clone(), t, MdlDuration::Transaction);
        let _ = m.acquire(MdlContextId(ctx), req, at, YEAR);
    }

    /// The lock rows of `view` as text: one line per row, `>` and the target rows for
    /// its arrows.
    fn render(view: &MdlView) -> String {
        let mut out = String::new();
        for l in &view.locks {
            out.push_str(&format!(
                "{} [{} granted, {} waiting, {} hidden]\n",
                l.title(),
                l.granted,
                l.waiting,
                l.hidden_waiting
            ));
            for (i, r) in l.rows.iter().enumerate() {
                let arrows = if r.waits_for.is_empty() {
                    String::new()
                } else {
                    format!(" > {:?}", r.waits_for)
                };
                out.push_str(&format!(
                    "  {i} {} {} {} | {} | {}{arrows}\n",
                    if r.granted { "GRANTED" } else { "PENDING" },
                    r.lock_type,
                    r.duration,
                    r.sessions_text(),
                    r.age_text(),
                ));
            }
        }
        out
    }

    #[test]
    fn sysbench_clients_are_grouped_and_a_console_session_stands_alone() {
        let t1 = MdlKey::table("test", "t1");
        let mut m = MdlManager::new();
        // 20 workload clients (ids 3..=22) read t1; the console session 1 too, first.
        acquire(&mut m, 1, &t1, MdlType::SharedRead, Tick::ZERO);
        for c in 3..=22 {
            acquire(
                &mut m,
                c,
                &t1,
                MdlType::SharedRead,
                Tick::from_ms(u64::from(c) * 100),
            );
        }
        // Console session 2's ALTER: SU, then X waits for every reader.
        let su = MdlRequest::new(
            t1.clone(),
            MdlType::SharedUpgradable,
            MdlDuration::Statement,
        );
        let (a, _) = m.acquire(MdlContextId(2), su, Tick::from_secs(5), YEAR);
        let ddlscope_engine::mdl::Acquire::Granted(ticket) = a else {
            panic!("{a:?}")
        };
        let _ = m.upgrade(ticket, MdlType::Exclusive, Tick::from_secs(5), YEAR);
        // 12 more clients queue behind the pending X: SELECTs, then UPDATEs.
        for c in 23..=30 {
            acquire(&mut m, c, &t1, MdlType::SharedRead, Tick::from_secs(6));
        }
        for c in 31..=34 {
            acquire(&mut m, c, &t1, MdlType::SharedWrite, Tick::from_secs(7));
        }
        // A GLOBAL IX (every write statement's) is not worth a card.
        let ix = MdlRequest::new(
            MdlKey::global(),
            MdlType::IntentionExclusive,
            MdlDuration::Statement,
        );
        let _ = m.acquire(MdlContextId(3), ix, Tick::from_secs(1), YEAR);
        let view = MdlView::build(&m.queues(), Tick::from_secs(9), &[1, 2]);
        expect_test::expect![[r#"
            test.t1 [22 granted, 13 waiting, 0 hidden]
              0 GRANTED SHARED_READ TRANSACTION | session 1 | held 9.0 s
              1 GRANTED SHARED_READ TRANSACTION | 20 sessions: 3, 4, 5, 6, 7, 8, 9, 10, … | held up to 8.7 s
              2 GRANTED SHARED_UPGRADABLE STATEMENT | session 2 | held 4.0 s
              3 PENDING EXCLUSIVE TRANSACTION | session 2 | waiting 4.0 s > [0, 1]
              4 PENDING SHARED_READ TRANSACTION | 8 sessions: 23, 24, 25, 26, 27, 28, 29, 30 | waiting up to 3.0 s > [3]
              5 PENDING SHARED_WRITE TRANSACTION | 4 sessions: 31, 32, 33, 34 | waiting up to 2.0 s > [3]
        "#]]
        .assert_eq(&render(&view));
        let l = &view.locks[0];
        assert_eq!(
            l.waits_for_text(3),
            "waits for 1 (SHARED_READ), 20 sessions (SHARED_READ)"
        );
        assert_eq!(l.waits_for_text(4), "waits for 2 (EXCLUSIVE, pending)");
        assert_eq!(l.rows[1].oldest, 3);
        // Arrows: the short spans (4→3, 5→3) inside, the X's two outside; solid to
        // granted rows, dashed to the pending X.
        let (arrows, lanes) = arrows(l);
        let got: Vec<(usize, usize, usize, bool)> = arrows
            .iter()
            .map(|a| (a.from, a.to, a.lane, a.to_granted))
            .collect();
        assert_eq!(
            got,
            [
                (4, 3, 0, false),
                (3, 1, 1, true),
                (5, 3, 2, false),
                (3, 0, 3, true)
            ]
        );
        assert_eq!((lanes, gutter_px(lanes)), (4, 42));
    }

    #[test]
    fn a_long_queue_shows_its_first_rows_and_counts_the_rest() {
        let t = MdlKey::table("test", "t");
        let mut m = MdlManager::new();
        acquire(&mut m, 1, &t, MdlType::Exclusive, Tick::ZERO);
        // Alternating types, each its own run: more runs than rows shown.
        for c in 2..22u32 {
            let ty = if c % 2 == 0 {
                MdlType::SharedRead
            } else {
                MdlType::SharedWrite
            };
            acquire(&mut m, c, &t, ty, Tick::from_secs(1));
        }
        let view = MdlView::build(&m.queues(), Tick::from_secs(2), &[1]);
        let l = &view.locks[0];
        assert_eq!(l.rows.len(), 1 + MAX_WAITING_ROWS);
        assert_eq!(l.hidden_waiting, 20 - MAX_WAITING_ROWS as u32);
        assert!(l.rows[1..].iter().all(|r| r.waits_for == [0]));
        // Past MAX_LANES arrows share the outermost lane.
        let (arrows, lanes) = arrows(l);
        assert_eq!(lanes, MAX_LANES);
        assert!(arrows.iter().all(|a| a.lane < MAX_LANES));
    }

    #[test]
    fn nothing_held_is_the_empty_view_and_ages_read_well() {
        let sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
        assert!(mdl_view(&sim).is_empty(), "nothing runs at time zero");
        assert!(MdlView::build(&[], Tick::ZERO, &[]).is_empty());
        assert_eq!(age(Tick::from_us(2_500)), "2 ms");
        assert_eq!(age(Tick::from_ms(400)), "400 ms");
        assert_eq!(age(Tick::from_ms(1_050)), "1.0 s");
        assert_eq!(age(Tick::from_ms(12_345)), "12.3 s");
        assert_eq!(age(Tick::from_secs(245)), "4 min 05 s");
        assert_eq!(age(Tick::from_secs(7_380)), "2 h 03 min");
    }

    /// The real engine: the demo's 16 sysbench clients read t2; on the idle t1 an open
    /// transaction's SELECT holds SHARED_READ, an ALTER's EXCLUSIVE waits for it, and a
    /// later SELECT queues behind the pending EXCLUSIVE.
    #[test]
    fn an_alter_behind_an_open_transaction_in_a_real_sim() {
        let mut sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
        let s1 = sim.connect();
        let s2 = sim.connect();
        let s3 = sim.connect();
        sim.submit_to(s1, "BEGIN; SELECT * FROM t1 WHERE id = 1")
            .unwrap();
        sim.run_for(Tick::from_ms(500));
        sim.submit_to(s2, "ALTER TABLE t1 ADD INDEX k2 (k)")
            .unwrap();
        sim.run_for(Tick::from_ms(500));
        sim.submit_to(s3, "SELECT * FROM t1 WHERE id = 2").unwrap();
        sim.run_for(Tick::from_ms(1000));
        let view = mdl_view(&sim);
        let titles: Vec<String> = view.locks.iter().map(LockView::title).collect();
        assert_eq!(titles, ["test.t1", "test.t2"], "tables only: {view:#?}");

        let t1 = &view.locks[0];
        let find = |granted: bool, session: u32| {
            t1.rows
                .iter()
                .position(|r| r.granted == granted && r.sessions == [session])
                .unwrap_or_else(|| panic!("{granted} {session}: {t1:#?}"))
        };
        let held = &t1.rows[find(true, s1)];
        assert_eq!(
            (held.lock_type, held.duration),
            ("SHARED_READ", "TRANSACTION")
        );
        // Taken a moment after the statement was sent, 2 s ago.
        assert!(held.age > Tick::from_ms(1900) && held.age <= Tick::from_secs(2));
        assert_eq!(held.age_text(), format!("held {}", age(held.age)));
        let x = find(false, s2);
        assert_eq!(t1.rows[x].lock_type, "EXCLUSIVE");
        let waited = t1.rows[x].age;
        assert!(waited > Tick::from_ms(1400) && waited <= Tick::from_ms(1500));
        assert!(t1.rows[x].age_text().starts_with("waiting 1."));
        assert_eq!(t1.rows[x].waits_for, [find(true, s1) as u16]);
        assert_eq!(
            t1.waits_for_text(x),
            format!("waits for {s1} (SHARED_READ)")
        );
        let sel = find(false, s3);
        assert!(sel > x, "queue order");
        assert_eq!(t1.rows[sel].lock_type, "SHARED_READ");
        assert_eq!(t1.rows[sel].waits_for, [x as u16], "behind the pending X");
        assert!(
            t1.rows.iter().any(|r| r.granted && r.sessions == [s2]),
            "{t1:#?}"
        );

        // t2: the workload's readers, in one row.
        let t2 = &view.locks[1];
        assert_eq!(t2.waiting, 0);
        assert_eq!(t2.rows.len(), 1, "{t2:#?}");
        assert_eq!(
            (t2.rows[0].lock_type, t2.rows[0].duration),
            ("SHARED_READ", "TRANSACTION")
        );
        assert!(t2.rows[0].sessions.len() > 1, "{t2:#?}");
        assert!(t2.rows[0]
            .sessions
            .iter()
            .all(|s| ![s1, s2, s3].contains(s)));

        // COMMIT: the ALTER gets its EXCLUSIVE, prepares, goes back to SHARED_UPGRADABLE
        // and builds the index (1.5 GB: for a while); the queued SELECT runs meanwhile.
        sim.submit_to(s1, "COMMIT").unwrap();
        sim.run_for(Tick::from_secs(2));
        let view = mdl_view(&sim);
        let t1 = &view.locks[0];
        assert_eq!((t1.name.as_str(), t1.waiting), ("test.t1", 0), "{t1:#?}");
        let holders: Vec<(&[u32], &str)> = t1
            .rows
            .iter()
            .map(|r| (r.sessions.as_slice(), r.lock_type))
            .collect();
        assert_eq!(holders, [(&[s2][..], "SHARED_UPGRADABLE")]);
        assert!(
            t1.rows[0].age > Tick::from_secs(3),
            "held since the ALTER began"
        );
    }

    /// LOCK TABLES t2 WRITE under the demo's workload: the 16 sysbench clients queue
    /// for t2 and show as one waiting row with one arrow to the console session.
    #[test]
    fn the_workload_queued_behind_lock_tables_is_one_row() {
        let mut sim = Sim::builtin("drop-table-demo", Some("mysql-5.7")).unwrap();
        sim.run_for(Tick::from_ms(500));
        let me = sim.console_session();
        sim.execute("LOCK TABLES t2 WRITE").unwrap();
        sim.run_for(Tick::from_ms(1000));
        let view = mdl_view(&sim);
        let t2 = view.locks.iter().find(|l| l.name == "test.t2").unwrap();
        assert_eq!(t2.rows.len(), 2, "{t2:#?}");
        let (held, queue) = (&t2.rows[0], &t2.rows[1]);
        assert_eq!(
            (
                held.granted,
                held.lock_type,
                held.duration,
                held.sessions.as_slice()
            ),
            (true, "SHARED_NO_READ_WRITE", "EXPLICIT", &[me][..])
        );
        assert_eq!((queue.granted, queue.lock_type), (false, "SHARED_READ"));
        assert_eq!(queue.sessions.len(), 16, "{queue:#?}");
        assert_eq!(queue.waits_for, [0]);
        assert_eq!(
            t2.waits_for_text(1),
            format!("waits for {me} (SHARED_NO_READ_WRITE)")
        );
        let rows = crate::processlist::proc_rows(&sim);
        assert!(
            crate::processlist::summary(&rows).contains("16 Waiting for table metadata lock"),
            "{}",
            crate::processlist::summary(&rows)
        );
    }
}
